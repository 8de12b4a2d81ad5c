package dev.watchkeeper.internal.watch;

import java.time.Duration;

/**
 * The varying part of a watch call; scope, selectors, bookmarks and timeout are fixed per watcher.
 *
 * @param resourceVersion       where to start, or {@code null} for "most recent"
 * @param sendInitialEvents     a streaming list: {@code sendInitialEvents=true&resourceVersionMatch=NotOlderThan}
 * @param initialEventsDeadline how long the initial events may take before the stream fails, or {@code null}
 */
public record WatchRequest(String resourceVersion, boolean sendInitialEvents, Duration initialEventsDeadline) {

    /** A plain watch from {@code resourceVersion}. */
    public static WatchRequest from(String resourceVersion) {
        return new WatchRequest(resourceVersion, false, null);
    }
}
