package dev.watchkeeper.bench;

/**
 * One controller under the dispatch scenario: 8 workers and the no-op reconciler of its own {@link DispatchProbe}, fed by its
 * own {@link SyntheticWatchApi}. Both implementations get the same keys, the same direct enqueues and the same
 * watch events; what differs is the queue and the path from watch event to queue.
 */
abstract class DispatchTarget implements AutoCloseable {

    protected final int keys;
    protected final SyntheticWatchApi api;
    protected final DispatchProbe probe;
    /**
     * Every key's object name, made once: formatting it cost about as much as a no-op dispatch and was paid inside
     * the timed enqueue loop, by both implementations alike.
     */
    private final String[] names;

    DispatchTarget(int keys) {
        this.keys = keys;
        this.api = new SyntheticWatchApi(keys);
        this.probe = new DispatchProbe(keys);
        this.names = new String[keys];
        for (int i = 0; i < keys; i++) {
            names[i] = SyntheticWatchApi.name(i);
        }
    }

    /** The object name of key {@code key}. */
    protected final String objectName(int key) {
        return names[key];
    }

    /** The row label's prefix, e.g. {@code "ours: Reconciler"}. */
    abstract String name();

    /** How watch events reach this target's queue, for the table's note. */
    abstract String updatePath();

    /** Starts watching and the workers, and returns once the initial list has been reconciled once per key. */
    abstract void start() throws Exception;

    /** Enqueues key {@code key} directly, as a secondary watch or an explicit trigger would. */
    abstract void enqueue(int key);

    final SyntheticWatchApi api() {
        return api;
    }

    final DispatchProbe probe() {
        return probe;
    }

    @Override
    public abstract void close();
}
