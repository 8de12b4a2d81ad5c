package dev.watchkeeper.watch;

/** What a watcher is doing, as published in its {@link WatcherSnapshot}. */
public enum WatcherPhase {
    /** Created, not started. */
    STARTING,
    /** Discovering the resource or receiving the initial list (paged or streamed). */
    LISTING,
    /** The initial state is complete; following changes (or about to reopen a watch). */
    WATCHING,
    /** Waiting before the next attempt after a failure. */
    BACKING_OFF,
    /** Closed, or gave up after the backoff's max elapsed time; no more requests. */
    STOPPED
}
