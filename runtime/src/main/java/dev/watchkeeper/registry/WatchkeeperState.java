package dev.watchkeeper.registry;

import dev.watchkeeper.reconcile.ReconcilerSnapshot;
import dev.watchkeeper.watch.WatcherSnapshot;
import java.util.List;
import java.util.Optional;

/**
 * The latest state of every watcher and reconciler of the application, as {@code /actuator/watchkeeper} shows it:
 * a bean the starter provides, for code that wants to read it.
 *
 * <pre>{@code
 * state.reconcilerSnapshot("configmap-generator")
 *         .flatMap(reconciler -> state.watcherSnapshot(reconciler.primaryWatcher()))
 *         .ifPresent(watcher -> log.info("{} is {}", watcher.name(), watcher.phase()));
 * }</pre>
 */
public interface WatchkeeperState {

    /** Every watcher's snapshot, in the order the watchers were created. */
    List<WatcherSnapshot> watcherSnapshots();

    /** The snapshot of the watcher with this name (declared or derived), if there is one. */
    Optional<WatcherSnapshot> watcherSnapshot(String name);

    /** Every reconciler's snapshot, in the order the reconcilers were registered. */
    List<ReconcilerSnapshot> reconcilerSnapshots();

    /** The snapshot of the reconciler with this name, if there is one. */
    Optional<ReconcilerSnapshot> reconcilerSnapshot(String name);
}
