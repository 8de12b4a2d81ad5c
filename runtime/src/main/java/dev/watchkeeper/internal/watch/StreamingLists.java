package dev.watchkeeper.internal.watch;

import dev.watchkeeper.internal.watch.WatchState.Empty;
import dev.watchkeeper.internal.watch.WatchState.Watching;
import dev.watchkeeper.watch.WatchError;
import dev.watchkeeper.watch.WatchEvent;
import java.time.Clock;
import java.time.Duration;
import java.util.List;

/**
 * Whether a {@link WatchMachine}'s (re)lists stream ({@code sendInitialEvents}), and in {@code AUTO} mode when they
 * stop for good (docs/semantics.md §4): at once when the server rejects streaming or its initial events outlast the
 * deadline, after {@link #FAILURES_BEFORE_FALLBACK} failures in a row that may be the streaming itself.
 */
final class StreamingLists {

    /**
     * In {@code AUTO} mode, this many streaming lists failing in a row with a 5xx or a broken stream fall back to
     * list-watch: enough to tell a server or proxy that breaks streaming from a blip, which must not cost streaming
     * for the watcher's life, since the fallback is never undone.
     */
    static final int FAILURES_BEFORE_FALLBACK = 3;

    private final boolean auto;
    private final Duration deadline;
    private final Clock clock;
    private boolean streaming;
    private int failedInARow;

    StreamingLists(WatchOptions options, Clock clock) {
        this.auto = options.initialList() == InitialListStrategy.AUTO;
        this.deadline = options.autoFallbackAfter();
        this.streaming = options.initialList() != InitialListStrategy.LIST_WATCH;
        this.clock = clock;
    }

    /** Whether the next (re)list streams; false after an {@code AUTO} fallback. */
    boolean streams() {
        return streaming;
    }

    /** The watch of a streaming list; in {@code AUTO} mode its initial events have a deadline. */
    WatchRequest request() {
        return WatchRequest.streamingList(auto ? deadline : null);
    }

    /** The watch of a streaming list failed to start, not with a 410 (which relists as any 410 does). */
    <T> Step<T> startFailed(ApiFailure failure, WatchError error) {
        if (auto && rejectsStreaming(failure.code())) {
            return fallBack(error);
        }
        if (auto && !busyOrDown(failure)) {
            return failed(error);
        }
        return Step.backOff(error, new Empty<>());
    }

    /** Whether {@code watching} is the initial phase of an {@code AUTO} streaming list. */
    boolean autoInitial(Watching<?> watching) {
        return watching.initial() && auto;
    }

    /** Whether {@code watching} is the initial phase of an {@code AUTO} streaming list, and past its deadline. */
    boolean overdue(Watching<?> watching) {
        return autoInitial(watching) && streaming
                && Duration.between(watching.startedAt(), clock.instant()).compareTo(deadline) >= 0;
    }

    /** A streaming list completed (its initial events ended): the failures in a row start over. */
    void completed() {
        failedInARow = 0;
    }

    /** Falls back to list-watch at once: the server cannot stream, so there is nothing to wait for. */
    <T> Step<T> fallBack(WatchError error) {
        streaming = false;
        return Step.proceed(List.of(new WatchEvent.Failure<>(error)), new Empty<>());
    }

    /**
     * {@code AUTO}: a streaming list failed in a way that may be the streaming itself — a 5xx, a broken stream, an
     * end before the initial events did. Back off and stream again; the {@link #FAILURES_BEFORE_FALLBACK}-th failure
     * in a row backs off and then lists, for good: client-go falls back at once, "making progress is better than
     * deadlocking", but tries streaming again at its next relist, while this fallback is never undone.
     */
    <T> Step<T> failed(WatchError error) {
        if (++failedInARow < FAILURES_BEFORE_FALLBACK) {
            return Step.backOff(error, new Empty<>());
        }
        streaming = false;
        return Step.backOff(new WatchError(error.kind(), error.code(), error.message() + "; falling back to list-watch"
                + " after " + failedInARow + " failed streaming lists in a row", error.at(), error.retryAfter()),
                new Empty<>());
    }

    private static boolean rejectsStreaming(int code) {
        return code >= 400 && code < 500 && code != 429;
    }

    /** A 429 or a refused connection says the server is busy or down, not that streaming fails: stream again. */
    private static boolean busyOrDown(ApiFailure failure) {
        return failure.code() == 429 || failure.connectionRefused();
    }
}
