package dev.watchkeeper.bench;

/**
 * One controller under scenario 4: 8 workers and the no-op reconciler of its own {@link DispatchProbe}, fed by its
 * own {@link SyntheticWatchApi}. Both implementations get the same keys, the same direct enqueues and the same
 * watch events; what differs is the queue and the path from watch event to queue.
 */
interface DispatchTarget extends AutoCloseable {

    /** The row label's prefix, e.g. {@code "ours: Controller"}. */
    String name();

    /** How watch events reach this target's queue, for the table's note. */
    String updatePath();

    /** Starts watching and the workers, and returns once the initial list has been reconciled once per key. */
    void start() throws Exception;

    /** Enqueues key {@code key} directly, as a secondary watch or an explicit trigger would. */
    void enqueue(int key);

    SyntheticWatchApi api();

    DispatchProbe probe();

    @Override
    void close();
}
