package dev.watchkeeper.test;

import dev.watchkeeper.watch.WatchError;
import dev.watchkeeper.watch.WatchEvent;
import dev.watchkeeper.watch.WatchEventListener;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Records a watcher's events as the strings of docs/semantics.md §1 ({@code Init}, {@code InitApply(a)}, {@code InitDone},
 * {@code Apply(a)}, {@code Delete(a)}, {@code Delete(a, final state unknown)}, {@code Error(WatchError 410)}), so a
 * test asserts a whole run in one line.
 * Thread-safe: the watcher's thread records, the test's thread waits and reads.
 *
 * <pre>{@code
 * EventRecorder<V1ConfigMap> recorder = new EventRecorder<>();
 * watcher.addListener(recorder);
 * watcher.start();
 * assertThat(recorder.awaitEvents(4, Duration.ofSeconds(5)))
 *     .containsExactly("Init", "InitApply(a)", "InitDone", "Apply(b)");
 * }</pre>
 *
 * @param <T> the object type
 */
public final class EventRecorder<T> implements WatchEventListener<T> {

    private final boolean spansNamespaces;
    private final Object lock = new Object();
    private final List<String> events = new ArrayList<>();
    private final List<WatchEvent<T>> raw = new ArrayList<>();
    private final List<WatchError> errors = new ArrayList<>();

    /** Names objects by {@code metadata.name}. */
    public EventRecorder() {
        this(false);
    }

    /** @param spansNamespaces name objects {@code namespace/name}, for a watcher over several namespaces */
    public EventRecorder(boolean spansNamespaces) {
        this.spansNamespaces = spansNamespaces;
    }

    @Override
    public void onEvent(WatchEvent<T> event) {
        String text = describe(event, spansNamespaces);
        synchronized (lock) {
            events.add(text);
            raw.add(event);
            if (event instanceof WatchEvent.Failure<T> failure) {
                errors.add(failure.error());
            }
            lock.notifyAll();
        }
    }

    /** The recorder string of {@code event}. */
    public static String describe(WatchEvent<?> event, boolean spansNamespaces) {
        if (event instanceof WatchEvent.Init<?>) {
            return "Init";
        }
        if (event instanceof WatchEvent.InitDone<?>) {
            return "InitDone";
        }
        if (event instanceof WatchEvent.InitApply<?> apply) {
            return "InitApply(" + name(apply.object(), spansNamespaces) + ")";
        }
        if (event instanceof WatchEvent.Apply<?> apply) {
            return "Apply(" + name(apply.object(), spansNamespaces) + ")";
        }
        if (event instanceof WatchEvent.Delete<?> delete) {
            return "Delete(" + name(delete.object(), spansNamespaces)
                    + (delete.finalStateUnknown() ? ", final state unknown" : "") + ")";
        }
        if (event instanceof WatchEvent.Failure<?> failure) {
            WatchError error = failure.error();
            return "Error(" + error.kind().label() + (error.code() == 0 ? "" : " " + error.code()) + ")";
        }
        throw new IllegalArgumentException("unknown event " + event);
    }

    private static String name(Object object, boolean spansNamespaces) {
        V1ObjectMeta metadata = object instanceof KubernetesObject k ? k.getMetadata() : null;
        if (metadata == null || metadata.getName() == null) {
            return String.valueOf(object);
        }
        return spansNamespaces && metadata.getNamespace() != null
                ? metadata.getNamespace() + "/" + metadata.getName()
                : metadata.getName();
    }

    /** Every event so far, as strings. */
    public List<String> events() {
        synchronized (lock) {
            return List.copyOf(events);
        }
    }

    /** Every event so far, as received. */
    public List<WatchEvent<T>> rawEvents() {
        synchronized (lock) {
            return List.copyOf(raw);
        }
    }

    /** The errors so far, to assert on kinds, codes and messages. */
    public List<WatchError> errors() {
        synchronized (lock) {
            return List.copyOf(errors);
        }
    }

    /**
     * Waits for at least {@code n} events and returns the first {@code n}.
     *
     * @throws AssertionError on timeout, showing what did arrive
     */
    public List<String> awaitEvents(int n, Duration timeout) {
        await(() -> events.size() >= n, timeout,
                () -> "expected " + n + " events within " + timeout + " but got " + events);
        synchronized (lock) {
            return List.copyOf(events.subList(0, n));
        }
    }

    /**
     * Waits until {@code event} (e.g. {@code "InitDone"}) has been recorded; returns every event so far.
     *
     * @throws AssertionError on timeout, showing what did arrive
     */
    public List<String> awaitEvent(String event, Duration timeout) {
        await(() -> events.contains(event), timeout,
                () -> "expected " + event + " within " + timeout + " but got " + events);
        return events();
    }

    /** Forgets everything recorded so far. */
    public void clear() {
        synchronized (lock) {
            events.clear();
            raw.clear();
            errors.clear();
        }
    }

    private void await(BooleanSupplier condition, Duration timeout, Supplier<String> failure) {
        Waiting.until(lock, condition, timeout, failure);
    }

    @Override
    public String toString() {
        return events().toString();
    }
}
