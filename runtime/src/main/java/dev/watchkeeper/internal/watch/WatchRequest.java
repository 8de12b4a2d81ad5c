package dev.watchkeeper.internal.watch;

import java.time.Duration;

/**
 * The varying part of a watch call; scope, selectors, bookmarks and timeout are fixed per watcher.
 *
 * @param resourceVersion       where to start, or {@code null} for "most recent"
 * @param sendInitialEvents     a streaming list: {@code sendInitialEvents=true&resourceVersionMatch=NotOlderThan}
 * @param initialEventsDeadline how long the initial events may take before the stream fails, or {@code null}
 * @param shardSelector         the {@code shardSelector} parameter of a sharded watcher, or {@code null}
 */
public record WatchRequest(String resourceVersion, boolean sendInitialEvents, Duration initialEventsDeadline,
        String shardSelector) {

    /** A plain watch from {@code resourceVersion}. */
    public static WatchRequest from(String resourceVersion) {
        return new WatchRequest(resourceVersion, false, null, null);
    }

    /** A streaming list: its initial events, then changes; {@code deadline} for the initial events or {@code null}. */
    public static WatchRequest streamingList(Duration deadline) {
        return new WatchRequest(null, true, deadline, null);
    }

    /** This request with {@code selector} as its {@code shardSelector} ({@code null} for none). */
    public WatchRequest withShardSelector(String selector) {
        return new WatchRequest(resourceVersion, sendInitialEvents, initialEventsDeadline, selector);
    }
}
