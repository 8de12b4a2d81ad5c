package dev.watchkeeper.bench;

import dev.watchkeeper.internal.backoff.TimeSource;
import dev.watchkeeper.internal.registry.RegistryServices;
import dev.watchkeeper.internal.registry.WatcherFactory;
import dev.watchkeeper.internal.registry.WatchkeeperRegistry;
import dev.watchkeeper.internal.shard.ShardCoordinator;
import dev.watchkeeper.internal.shard.ShardingListener;
import dev.watchkeeper.internal.watch.Watcher;
import dev.watchkeeper.reconcile.ReconcileResult;
import dev.watchkeeper.internal.registry.ReconcilerDeclaration;
import dev.watchkeeper.internal.registry.WatcherSpec;
import dev.watchkeeper.internal.shard.ShardingSettings;
import dev.watchkeeper.internal.shard.ShardingSnapshot;
import dev.watchkeeper.store.ObjectKey;
import dev.watchkeeper.watch.WatcherSnapshot;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * One replica of a sharded application in this JVM, as the Boot layer wires one: its own {@link ApiClient} (with a
 * {@link TrafficCounter}), a {@link ShardCoordinator} and a sharded {@link WatchkeeperRegistry} with one reconciler of
 * the namespace's ConfigMaps, which logs every reconcile's start and end into a log shared by the replicas.
 */
final class ShardReplica {

    /** Simulated work per reconcile, so that two replicas reconciling one key at once would show as an overlap. */
    private static final long WORK_MILLIS = 1;
    private static final int WORKERS = 4;

    /** One reconcile: {@code replica} reconciled {@code key} from {@code start} to {@code end} (nanoTime). */
    record Interval(String replica, ObjectKey key, long start, long end) {
    }

    final String identity;
    final TrafficCounter traffic;
    private final ShardCoordinator coordinator;
    private final WatchkeeperRegistry registry;

    ShardReplica(String identity, ApiClient client, ShardingSettings group, ConcurrentLinkedQueue<Interval> log,
            ShardingListener listener) {
        this.identity = identity;
        this.traffic = TrafficCounter.on(client);
        this.coordinator = ShardCoordinator.builder(client, group.withIdentity(identity)).build();
        coordinator.addListener(listener);
        this.registry = new WatchkeeperRegistry(new RegistryServices(client, TimeSource.system(), null, null, null,
                null), WatcherFactory.http(client), null, coordinator);
        registry.registerReconciler(new ReconcilerDeclaration<V1ConfigMap>("work",
                WatcherSpec.of(V1ConfigMap.class).namespace(group.namespace()), List.of(),
                (configMap, context) -> {
                    long start = System.nanoTime();
                    try {
                        Thread.sleep(WORK_MILLIS);
                        return ReconcileResult.done();
                    } finally {
                        log.add(new Interval(identity, context.key(), start, System.nanoTime()));
                    }
                }, WORKERS, Set.of(), null, "sharding benchmark"));
    }

    void start() {
        registry.start();
    }

    /** Stops as a replica that shuts down: drains, hands its slots over and releases its member Lease. */
    void close() {
        registry.stop();
    }

    ShardingSnapshot sharding() {
        return coordinator.snapshot();
    }

    /** The primary watcher: its store holds this replica's share. */
    Watcher<?> primary() {
        return registry.watchers().iterator().next();
    }

    /** Whether the primary watcher holds the slots the coordinator assigns and has synced them. */
    boolean watcherSynced() {
        WatcherSnapshot watcher = primary().snapshot();
        return watcher.synced() && watcher.shard() != null && sharding().assigned().equals(watcher.shard().slots());
    }

    @Override
    public String toString() {
        return identity;
    }
}
