package dev.watchkeeper.internal.watch;

import java.time.Instant;

/**
 * Where a watcher is in its list-watch cycle (docs/semantics.md §2). A small closed type: {@link WatchMachine#step}
 * matches on it and returns the next one.
 */
public sealed interface WatchState<T> {

    /** Nothing known: the next step starts a (re)list and emits {@code Init}. */
    record Empty<T>() implements WatchState<T> {
    }

    /**
     * A sharded watcher that holds no slot: it makes no request until it is given some ({@link Watcher#reshard}),
     * which starts it over from {@link Empty}.
     */
    record Idle<T>() implements WatchState<T> {
    }

    /** Listing: the next step fetches the page {@code request} asks for. */
    record InitPage<T>(ListRequest request) implements WatchState<T> {
    }

    /** About to open the single watch of a streaming list ({@code sendInitialEvents=true}). */
    record InitStream<T>() implements WatchState<T> {
    }

    /** The initial state is complete up to {@code resourceVersion}; the next step opens a watch from there. */
    record InitListed<T>(String resourceVersion) implements WatchState<T> {
    }

    /**
     * A watch is open.
     *
     * @param resourceVersion the last version seen (object or bookmark), where a rewatch resumes
     * @param stream          the open stream
     * @param startedAt       when the watch opened, for the "very short watch" guard
     * @param progressed      whether any event arrived on this stream
     * @param initial         still receiving a streaming list's initial events
     */
    record Watching<T>(String resourceVersion, EventStream<T> stream, Instant startedAt, boolean progressed,
            boolean initial) implements WatchState<T> {

        Watching<T> advancedTo(String version, boolean stillInitial) {
            return new Watching<>(version == null ? resourceVersion : version, stream, startedAt, true, stillInitial);
        }
    }
}
