package dev.watchkeeper.internal.watch;

import dev.watchkeeper.internal.shard.Slots;
import dev.watchkeeper.internal.store.CacheStore;
import dev.watchkeeper.watch.WatchEvent;
import dev.watchkeeper.watch.WatcherSnapshot;
import io.kubernetes.client.common.KubernetesObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A sharded watcher's share and its hand-off from whoever gives it ({@link #assign}, any thread) to the watcher's
 * thread, which adopts it before each step ({@link #follow}) into its {@link WatchMachine} (the selector it sends) and
 * its {@link ShardGate} (the filter it applies). The thread waits here while it has no slots yet, or holds none and
 * was given no others.
 */
final class ShardAssignment<T extends KubernetesObject> {

    /** The watcher's logger: a reshard is the watcher's news. */
    private static final Logger log = LoggerFactory.getLogger(Watcher.class);

    private final String name;
    private final ShardFilter filter;
    private final WatchApi<T> api;
    private final WatchMachine<T> machine;
    private final ShardGate<T> gate;
    /** Guards {@link #assigned} and {@link #closed}; the thread waits on it while it has no slots to list. */
    private final Object lock = new Object();

    private volatile Slots assigned;
    private boolean closed;

    ShardAssignment(String name, ShardFilter filter, WatchApi<T> api, WatchMachine<T> machine, CacheStore<T> store) {
        this.name = name;
        this.filter = filter;
        this.api = api;
        this.machine = machine;
        this.gate = new ShardGate<>(filter, store);
    }

    /**
     * Gives the watcher {@code slots} from now on, cuts short its call for the old ones and, when they differ from
     * those last given, runs {@code endWait} (ending the watcher's backoff wait); any thread.
     */
    void assign(Slots slots, Runnable endWait) {
        synchronized (lock) {
            if (slots.equals(assigned)) {
                return;
            }
            assigned = slots;
            lock.notifyAll();
            // Under the lock, so that these can only end a call or a backoff wait for the old share: the thread
            // adopts the new slots under the same lock before it makes a call for them or fails one.
            api.abort();
            endWait.run();
        }
    }

    /** Ends the thread's wait for slots: the watcher is closing. */
    void close() {
        synchronized (lock) {
            closed = true;
            lock.notifyAll();
        }
    }

    /**
     * Waits while the watcher has no slots yet, or holds none and was given no others; when it was given new slots,
     * adopts them and starts over from {@code Empty}. Returns the state to step, or {@code null} once closed. Called
     * by the watcher's thread before each step.
     */
    WatchState<T> follow(WatchState<T> state) {
        Slots previous = machine.slots();
        Slots wanted;
        synchronized (lock) {
            try {
                while (!closed && (assigned == null
                        || state instanceof WatchState.Idle<T> && assigned.equals(previous))) {
                    lock.wait();
                }
            } catch (InterruptedException interrupted) {
                if (!closed) {
                    log.warn("watcher {} stops: its wait for slots was interrupted", name);
                }
                return null;
            }
            if (closed) {
                return null;
            }
            wanted = assigned;
            if (wanted.equals(previous)) {
                return state;
            }
            machine.reshard(wanted);
        }
        gate.reshard(wanted);
        if (state instanceof WatchState.Watching<T> watching) {
            watching.stream().close();
        }
        log.info("watcher {} reshards: slots {} -> {}", name, previous == null ? "none yet" : previous, wanted);
        return new WatchState.Empty<>();
    }

    /**
     * Whether the watcher was given other slots while its last step ran (a call the reshard cut short, say): what the
     * step yielded is for the old share, and neither progress nor failure.
     */
    boolean superseded() {
        return !assigned.equals(machine.slots());
    }

    /** The event to deliver for {@code event}, or {@code null} to drop it ({@link ShardGate#admit}). */
    WatchEvent<T> admit(WatchEvent<T> event) {
        return gate.admit(event);
    }

    /** The shard part of the watcher's snapshot. */
    WatcherSnapshot.Shard snapshot() {
        Slots slots = machine.slots();
        WatcherSnapshot.Shard.Mode mode = machine.listedMode();
        if (mode == WatcherSnapshot.Shard.Mode.UNKNOWN && gate.sawOutside()) {
            // A streaming list does not say whether the server filtered, but an object outside the share shows it did not.
            mode = WatcherSnapshot.Shard.Mode.CLIENT;
        }
        return new WatcherSnapshot.Shard(filter.by(), slots == null ? null : slots.toString(), mode, gate.filtered());
    }
}
