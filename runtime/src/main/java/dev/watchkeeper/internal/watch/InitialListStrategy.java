package dev.watchkeeper.internal.watch;


/** How a watcher gets its initial state. */
public enum InitialListStrategy {
    /** Paged list calls, then a watch from the list's resourceVersion (works on every server). */
    LIST_WATCH,
    /** One watch with {@code sendInitialEvents=true}: the initial state streams in as events (Kubernetes ≥ 1.27 with the feature on). */
    STREAMING,
    /** Try streaming; fall back to list-watch for good when the server rejects it or never ends the initial events. */
    AUTO
}
