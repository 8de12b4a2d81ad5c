package dev.watchkeeper.test.sharding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.watchkeeper.internal.shard.Slots;
import dev.watchkeeper.internal.shard.ShardingSettings;
import dev.watchkeeper.internal.shard.ShardingSnapshot;
import dev.watchkeeper.internal.shard.ShardingSnapshot.Phase;
import dev.watchkeeper.store.ObjectKey;
import io.kubernetes.client.openapi.ApiClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The replicas of one application in this JVM, in real time, with their shared reconcile log. Watches every change
 * of a replica's active slots (on its coordinator's thread) for a slot active on two replicas at once, and samples
 * every replica's hand-overs.
 */
final class ReplicaSet implements AutoCloseable {

    /** Short timing: lease 3 s, renew deadline 2 s, retry period 500 ms (3 > 2 > 1.2 × 0.5). */
    static final Duration LEASE = Duration.ofSeconds(3);
    static final Duration RENEW_DEADLINE = Duration.ofSeconds(2);
    static final Duration RETRY = Duration.ofMillis(500);

    private final Supplier<ApiClient> clients;
    private final ShardingSettings group;
    private final ReconcileIntervals intervals = new ReconcileIntervals();
    private volatile Map<ObjectKey, List<String>> cleanups;
    private final List<Replica> replicas = new CopyOnWriteArrayList<>();
    /** Each replica's active slots as its coordinator last announced them. */
    private final Map<String, Slots> announced = new HashMap<>();
    private final List<String> doubleActive = new CopyOnWriteArrayList<>();
    private final ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "hand-over-sampler");
        thread.setDaemon(true);
        return thread;
    });

    /** Replicas with a fresh client from {@code clients} each, their member Leases in {@code namespace}. */
    ReplicaSet(Supplier<ApiClient> clients, String namespace) {
        this.clients = clients;
        this.group = new ShardingSettings("replicas", namespace, "unnamed", LEASE, RENEW_DEADLINE, RETRY);
        sampler.scheduleAtFixedRate(() -> replicas.forEach(Replica::sample), 0, 10, TimeUnit.MILLISECONDS);
    }

    ReconcileIntervals intervals() {
        return intervals;
    }

    /** Each object's cleanups, with the identity of the replica that ran each; only with {@link #withFinalizer}. */
    Map<ObjectKey, List<String>> cleanups() {
        return cleanups;
    }

    /** Replicas started from now on have a finalizer on their reconciler, and note their cleanups. */
    ReplicaSet withFinalizer() {
        cleanups = new ConcurrentHashMap<>();
        return this;
    }

    Replica start(String identity) {
        Replica replica = new Replica(identity, clients.get(), group, intervals,
                (before, after, snapshot) -> announce(identity, after), cleanups);
        replicas.add(replica);
        replica.start();
        return replica;
    }

    List<Replica> all() {
        return List.copyOf(replicas);
    }

    List<Replica> live() {
        return replicas.stream().filter(Replica::live).toList();
    }

    /** Moments at which a replica announced a slot that another replica had active. */
    List<String> doubleActive() {
        return List.copyOf(doubleActive);
    }

    private synchronized void announce(String identity, Slots active) {
        announced.put(identity, active);
        announced.forEach((other, slots) -> {
            Slots both = slots.intersection(active);
            if (!other.equals(identity) && !both.isEmpty()) {
                doubleActive.add(identity + " activated " + both + " while " + other + " had them active");
            }
        });
    }

    /**
     * Waits until every live replica is settled on one epoch with every live replica a live member, and their active
     * slots cover the 128 each once; returns how long that took.
     */
    Duration awaitSettled(Duration limit) {
        long begin = System.nanoTime();
        await().atMost(limit).pollInterval(Duration.ofMillis(20)).until(this::settled);
        return Duration.ofNanos(System.nanoTime() - begin);
    }

    private boolean settled() {
        List<Replica> live = live();
        Set<String> identities = new HashSet<>(live.stream().map(replica -> replica.identity).toList());
        String epoch = null;
        for (Replica replica : live) {
            ShardingSnapshot snapshot = replica.snapshot();
            Set<String> members = new HashSet<>(snapshot.members().stream().filter(ShardingSnapshot.Member::live)
                    .map(ShardingSnapshot.Member::identity).toList());
            if (snapshot.phase() != Phase.SETTLED || !members.equals(identities)
                    || (epoch != null && !epoch.equals(snapshot.epoch()))) {
                return false;
            }
            epoch = snapshot.epoch();
        }
        return coverEachSlotOnce(live);
    }

    /** Whether the active slots of {@code replicas}' snapshots cover all 128 slots, each once. */
    static boolean coverEachSlotOnce(List<Replica> replicas) {
        Slots union = Slots.none();
        for (Replica replica : replicas) {
            Slots active = parse(replica.snapshot().active());
            if (!union.intersection(active).isEmpty()) {
                return false;
            }
            union = union.union(active);
        }
        return union.equals(Slots.all());
    }

    /** The final checks: live replicas hold every live object once; no slot twice; no key reconciled twice at once. */
    void assertConsistent(Set<ObjectKey> liveObjects) {
        List<Replica> live = live();
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            List<ObjectKey> held = new ArrayList<>();
            live.forEach(replica -> held.addAll(replica.held()));
            assertThat(held).as("objects held by the live replicas' primary stores").hasSize(liveObjects.size())
                    .containsExactlyInAnyOrderElementsOf(liveObjects);
        });
        assertThat(coverEachSlotOnce(live)).as("the live replicas' active slots cover the 128 slots, each once: %s",
                live.stream().map(replica -> replica.identity + " " + replica.snapshot().active()).toList()).isTrue();
        assertThat(doubleActive()).as("a slot announced active on two replicas").isEmpty();
        assertThat(intervals.overlaps()).as("reconciles of one key at overlapping times").isEmpty();
    }

    /** Per replica: objects in its primary store, slots, hand-overs and their durations. */
    void print(String title) {
        System.out.println(title + ": " + intervals.size() + " reconciles, by replica " + intervals.countsByReplica());
        for (Replica replica : replicas) {
            ShardingSnapshot snapshot = replica.snapshot();
            String state = replica.killed() ? "killed" : replica.live() ? "live" : "closed";
            System.out.printf("  %s (%s): %d objects held, active %s (%d slots), %d hand-overs, durations (ms) %s%n",
                    replica.identity, state, replica.live() ? replica.held().size() : 0, snapshot.active(),
                    parse(snapshot.active()).size(), snapshot.handOvers(),
                    replica.handOvers.stream().map(Duration::toMillis).toList());
        }
    }

    /** Reads {@code Slots.toString()}: {@code [0-20,64]}, {@code []}. */
    static Slots parse(String text) {
        Slots slots = Slots.none();
        String body = text.substring(1, text.length() - 1);
        if (body.isEmpty()) {
            return slots;
        }
        for (String run : body.split(",")) {
            String[] ends = run.split("-");
            int from = Integer.parseInt(ends[0]);
            int to = Integer.parseInt(ends[ends.length - 1]);
            for (int slot = from; slot <= to; slot++) {
                slots = slots.with(slot);
            }
        }
        return slots;
    }

    /**
     * Closes every replica not yet closed, a killed one too (its release fails), all at once: each close waits for
     * its drain and release, up to a renew deadline or two.
     */
    @Override
    public void close() {
        sampler.shutdownNow();
        CompletableFuture.allOf(replicas.stream().filter(replica -> replica.live() || replica.killed())
                .map(replica -> CompletableFuture.runAsync(replica::close)).toArray(CompletableFuture[]::new)).join();
    }
}
