package dev.watchkeeper.test.sharding;

import dev.watchkeeper.watch.WatcherSnapshot;
import dev.watchkeeper.internal.backoff.TimeSource;
import dev.watchkeeper.internal.registry.RegistryServices;
import dev.watchkeeper.internal.registry.WatcherFactory;
import dev.watchkeeper.internal.registry.WatchkeeperRegistry;
import dev.watchkeeper.internal.shard.ShardCoordinator;
import dev.watchkeeper.internal.shard.ShardingListener;
import dev.watchkeeper.internal.watch.Watcher;
import dev.watchkeeper.internal.reconcile.Finalizer;
import dev.watchkeeper.internal.registry.ReconcilerDeclaration;
import dev.watchkeeper.internal.registry.WatcherSpec;
import dev.watchkeeper.internal.shard.ShardingSettings;
import dev.watchkeeper.internal.shard.ShardingSnapshot;
import dev.watchkeeper.store.ObjectKey;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * One replica of the application in this JVM: its own {@link ApiClient}, a {@link ShardCoordinator} and a sharded
 * {@link WatchkeeperRegistry} with one reconciler of the test's ConfigMaps, as the Boot layer wires them.
 *
 * <p><b>Killed</b> ({@link #kill()}): every call of its client fails from then on, those in flight included,
 * without {@code close()} running anywhere — as when the process and its connections are gone, its member Lease is
 * left held as it last wrote it, for the others to see expire. An interceptor on the replica's client refuses every
 * request, and the client's dispatcher cancels the calls in flight (open watches, a renewal). Unlike a dead process,
 * its threads go on: its coordinator misses its renew deadline and narrows to no slot (the partitioned replica's
 * path), which only takes work away from it, never adds any.
 */
final class Replica {

    static final String RECONCILER = "work";
    static final String LABEL = "watchkeeper-test=replicas";
    static final String FINALIZER = "watchkeeper.dev/replicas-test";

    final String identity;
    final ShardCoordinator coordinator;
    final WatchkeeperRegistry registry;
    /** How long each hand-over it completed took, in order. */
    final List<Duration> handOvers = new CopyOnWriteArrayList<>();
    private final ApiClient client;
    private volatile boolean killed;
    private volatile boolean closed;
    private long handOversSeen;

    /**
     * @param cleanups {@code null}: the reconciler has no finalizer; else it has {@link #FINALIZER}, and each cleanup
     *                 is noted there, with this replica's identity
     */
    Replica(String identity, ApiClient client, ShardingSettings group, ReconcileIntervals intervals,
            ShardingListener listener, Map<ObjectKey, List<String>> cleanups) {
        this.identity = identity;
        this.client = client;
        client.setHttpClient(client.getHttpClient().newBuilder().addInterceptor(chain -> {
            if (killed) {
                throw new IOException(identity + " was killed");
            }
            return chain.proceed(chain.request());
        }).build());
        this.coordinator = ShardCoordinator.builder(client, group.withIdentity(identity)).build();
        coordinator.addListener(listener);
        this.registry = new WatchkeeperRegistry(new RegistryServices(client, TimeSource.system(), null, null, null,
                null), WatcherFactory.http(client), null, coordinator);
        registry.registerReconciler(new ReconcilerDeclaration<>(RECONCILER,
                WatcherSpec.of(V1ConfigMap.class).namespace(group.namespace()).labelSelector(LABEL), List.of(),
                (configMap, context) -> intervals.reconcile(identity, context.key(), configMap), 4, Set.of(), null,
                "test", null, List.of(), cleanups == null ? null : new Finalizer<>(FINALIZER, (configMap, context) ->
                        cleanups.computeIfAbsent(context.key(), key -> new CopyOnWriteArrayList<>()).add(identity))));
    }

    void start() {
        registry.start();
    }

    /** Stops as a replica that shuts down: hands its slots over, releases its member Lease. */
    void close() {
        closed = true;
        registry.stop();
    }

    /** Dies without a word: see the class comment. */
    void kill() {
        killed = true;
        client.getHttpClient().dispatcher().cancelAll();
    }

    boolean live() {
        return !killed && !closed;
    }

    boolean killed() {
        return killed;
    }

    ShardingSnapshot snapshot() {
        return coordinator.snapshot();
    }

    /** The primary watcher's store: the objects of this replica's share. */
    List<ObjectKey> held() {
        Watcher<?> primary = registry.watchers().iterator().next();
        return primary.store().list().stream().map(ObjectKey::of).toList();
    }

    /** The shard part of the primary watcher's snapshot: who filters its share. */
    WatcherSnapshot.Shard primaryShard() {
        return registry.watchers().iterator().next().snapshot().shard();
    }

    /** Notes a hand-over completed since the last call; called often enough to see each (they are ≥ 125 ms apart). */
    synchronized void sample() {
        ShardingSnapshot snapshot = snapshot();
        if (snapshot.handOvers() > handOversSeen) {
            handOversSeen = snapshot.handOvers();
            handOvers.add(snapshot.lastHandOver());
        }
    }

    @Override
    public String toString() {
        return identity;
    }
}
