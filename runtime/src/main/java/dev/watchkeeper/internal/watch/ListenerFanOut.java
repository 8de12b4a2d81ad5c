package dev.watchkeeper.internal.watch;

import dev.watchkeeper.watch.ErrorKind;
import dev.watchkeeper.watch.WatchError;
import dev.watchkeeper.watch.WatchEvent;
import dev.watchkeeper.watch.WatchEventListener;
import dev.watchkeeper.store.CachedObject;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands a watcher's events, counted in its {@link EventTally}, to its listeners in the order they were added
 * (docs/semantics.md §1). A listener that reads objects is handed only objects that decode: for one that does not,
 * it gets a {@code DecodeFailed} failure instead, right after the event, or, for an object of a list page, after the
 * page's objects (§7, §8). A listener that throws is logged and skipped; a {@linkplain FatalErrors fatal} error is
 * counted as the watcher's last error and thrown on, which stops the watcher.
 */
final class ListenerFanOut<T> {

    private static final Logger log = LoggerFactory.getLogger(Watcher.class);

    private final String name;
    private final EventTally tally;
    private final Clock clock;
    private final List<WatchEventListener<T>> listeners = new CopyOnWriteArrayList<>();
    /** Failures of list items that did not decode, held until the page's objects are delivered. */
    private final Queue<WatchEvent.Failure<T>> undecodableListItems = new ArrayDeque<>();

    ListenerFanOut(String name, EventTally tally, Clock clock) {
        this.name = Objects.requireNonNull(name, "name");
        this.tally = Objects.requireNonNull(tally, "tally");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * Adds a listener; any thread. {@code catchUp} goes to it first, on the calling thread, not counted: what the
     * others were handed before, as the {@link Watcher} replays it from its store.
     */
    void add(WatchEventListener<T> listener, List<WatchEvent<T>> catchUp) {
        Objects.requireNonNull(listener, "listener");
        for (WatchEvent<T> event : catchUp) {
            CachedObject<T> object = objectOf(event);
            if (object != null && listener.readsObjects() && object.decoded() == null) {
                continue; // reported to the others when it came; a listener that reads objects is never handed it
            }
            try {
                listener.onEvent(event);
            } catch (Throwable thrown) {
                if (FatalErrors.isFatal(thrown)) {
                    throw thrown;
                }
                log.error("listener of watcher {} failed on {} while catching up", name,
                        event.getClass().getSimpleName(), thrown);
            }
        }
        listeners.add(listener);
    }

    /** Counts {@code event} and hands it to every listener. */
    void deliver(WatchEvent<T> event) {
        if (!(event instanceof WatchEvent.InitApply<T>)) {
            flush();
        }
        tally.count(event);
        CachedObject<T> object = objectOf(event);
        boolean readable = true;
        boolean checked = false;
        for (WatchEventListener<T> listener : listeners) {
            if (object != null && listener.readsObjects()) {
                if (!checked) {
                    readable = object.decoded() != null;
                    checked = true;
                }
                if (!readable) {
                    continue;
                }
            }
            try {
                listener.onEvent(event);
            } catch (Throwable thrown) {
                if (FatalErrors.isFatal(thrown)) {
                    stopFor(thrown, event);
                    throw thrown;
                }
                log.error("listener of watcher {} failed on {}", name, event.getClass().getSimpleName(), thrown);
            }
        }
        if (!readable && object.claimReport()) {
            reportUndecodable(event, object);
        }
    }

    /** Delivers the failures of list items that could not be decoded, once the page's objects are delivered. */
    void flush() {
        while (!undecodableListItems.isEmpty()) {
            deliver(undecodableListItems.remove());
        }
    }

    private static <T> CachedObject<T> objectOf(WatchEvent<T> event) {
        return event instanceof WatchEvent.Apply<T> apply ? apply.cached()
                : event instanceof WatchEvent.InitApply<T> apply ? apply.cached()
                : event instanceof WatchEvent.Delete<T> delete ? delete.cached() : null;
    }

    private void reportUndecodable(WatchEvent<T> event, CachedObject<T> object) {
        WatchError error = new WatchError(ErrorKind.DECODE_FAILED, 0, "skipped " + object.problem(), clock.instant());
        log.warn("watcher {}: {}", name, error.message());
        if (event instanceof WatchEvent.InitApply<T>) {
            undecodableListItems.add(new WatchEvent.Failure<>(error));
        } else {
            deliver(new WatchEvent.Failure<>(error));
        }
    }

    /** A listener threw a fatal error: it becomes the last error of the STOPPED snapshot. */
    private void stopFor(Throwable fatal, WatchEvent<T> event) {
        tally.failed(new WatchError(ErrorKind.WATCH_FAILED, 0, "a listener threw " + fatal.getClass().getName()
                + " on " + event.getClass().getSimpleName() + "; the watcher stopped", clock.instant()));
        log.error("watcher {} stops: a listener threw {} on {}", name, fatal.getClass().getName(),
                event.getClass().getSimpleName(), fatal);
    }
}
