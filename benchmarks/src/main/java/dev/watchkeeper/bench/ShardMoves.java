package dev.watchkeeper.bench;

import dev.watchkeeper.internal.shard.SlotAssignment;
import dev.watchkeeper.internal.shard.Slots;
import dev.watchkeeper.internal.shard.UidHash;
import dev.watchkeeper.internal.shard.ShardingSettings;
import dev.watchkeeper.internal.shard.ShardingSnapshot;
import dev.watchkeeper.store.ObjectKey;
import dev.watchkeeper.test.apiserver.InMemoryApiServer;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Collectors;

/**
 * Replicas of one sharded application in this JVM, each with its own client, real {@code ShardCoordinator} over member
 * Leases and sharded reconciler, on the in-memory API server with n ConfigMaps, in real time with short Lease timing:
 * three replicas start, a fourth joins, then it leaves (gracefully, releasing its Lease). For each step it measures
 * the slots and objects that changed owner, the time until the replicas are settled, and what the server sent each
 * replica; over the whole run it checks that no key was reconciled by two replicas at overlapping times and that no
 * replica activated a slot another had active. Run once with the server's {@code shardSelector} filter and once with
 * a server that ignores it (each replica then receives every object and keeps its share).
 */
final class ShardMoves {

    /** Short Lease timing, as the replica-set tests use: 3 s &gt; 2 s &gt; 1.2 × 0.5 s. */
    static final Duration LEASE = Duration.ofSeconds(3);
    static final Duration RENEW_DEADLINE = Duration.ofSeconds(2);
    static final Duration RETRY = Duration.ofMillis(500);
    private static final String NAMESPACE = "bench";
    private static final Duration SETTLE_LIMIT = Duration.ofMinutes(3);

    /**
     * One step of the run.
     *
     * @param slotsMoved   slots whose owner changed, 0 to 1
     * @param objectsMoved objects whose owner changed (for the start: the objects, all of them new to some replica)
     * @param settle       from the change (the first replica's start, the newcomer's start, the leaver's close)
     *                     until every replica is settled and its watcher synced to its slots
     * @param traffic      per replica that took part, the requests it made and the bytes the server sent it during
     *                     the step
     */
    record Step(String name, int replicasBefore, int replicasAfter, double slotsMoved, long objectsMoved,
            Duration settle, Map<String, TrafficCounter.Usage> traffic) {
    }

    /**
     * The whole run.
     *
     * @param reconciles   reconciles logged by all replicas
     * @param overlaps     reconciles of one key by two replicas at overlapping times, described (none expected)
     * @param doubleActive moments a replica activated a slot another had active (none expected)
     * @param modes        each replica's primary watcher's filter mode at the end (SERVER or CLIENT)
     */
    record Run(boolean serverFilter, int objects, List<Step> steps, int reconciles, List<String> overlaps,
            List<String> doubleActive, Map<String, String> modes) {
    }

    private final int objects;
    private final boolean serverFilter;
    private final ConcurrentLinkedQueue<ShardReplica.Interval> log = new ConcurrentLinkedQueue<>();
    private final Map<String, Slots> announced = new HashMap<>();
    private final List<String> doubleActive = new ArrayList<>();
    private final Map<String, ShardReplica> replicas = new LinkedHashMap<>();
    private long[] hashes;

    /** @param serverFilter whether the server honours {@code shardSelector} */
    ShardMoves(int objects, boolean serverFilter) {
        this.objects = objects;
        this.serverFilter = serverFilter;
    }

    Run run() throws Exception {
        String mode = serverFilter ? "server filter" : "client filter";
        try (InMemoryApiServer server = InMemoryApiServer.builder().shardSelectors(serverFilter).build().start()) {
            long created = System.nanoTime();
            hashes = create(server);
            Progress.say("sharding (%s): %,d ConfigMaps created in %,d ms", mode, objects,
                    (System.nanoTime() - created) / 1_000_000);
            ShardingSettings group = new ShardingSettings("bench", NAMESPACE, "unnamed", LEASE, RENEW_DEADLINE, RETRY);
            List<Step> steps = new ArrayList<>();
            try {
                steps.add(step("start", List.of(), List.of("r0", "r1", "r2"), () -> {
                    for (String identity : List.of("r0", "r1", "r2")) {
                        start(identity, server, group);
                    }
                }));
                steps.add(step("join", List.of("r0", "r1", "r2"), List.of("r0", "r1", "r2", "r3"),
                        () -> start("r3", server, group)));
                steps.add(step("leave", List.of("r0", "r1", "r2", "r3"), List.of("r0", "r1", "r2"),
                        () -> replicas.remove("r3").close()));
                steps.forEach(step -> Progress.say("sharding (%s): %s %d → %d settled in %,d ms, %.3f of the slots and"
                        + " %,d objects moved", mode, step.name(), step.replicasBefore(), step.replicasAfter(),
                        step.settle().toMillis(), step.slotsMoved(), step.objectsMoved()));
                Map<String, String> modes = new LinkedHashMap<>();
                replicas.forEach((identity, replica) -> modes.put(identity,
                        String.valueOf(replica.primary().snapshot().shard().mode())));
                List<String> overlaps = overlaps();
                synchronized (this) {
                    return new Run(serverFilter, objects, steps, log.size(), overlaps, List.copyOf(doubleActive),
                            modes);
                }
            } finally {
                CompletableFuture.allOf(replicas.values().stream().map(r -> CompletableFuture.runAsync(r::close))
                        .toArray(CompletableFuture[]::new)).join();
            }
        }
    }

    /** A membership change: runs {@code change}, waits until the replicas are settled, measures the step. */
    private Step step(String name, List<String> before, List<String> after, ThrowingRunnable change)
            throws Exception {
        Map<String, TrafficCounter.Usage> usageBefore = new HashMap<>();
        replicas.forEach((identity, replica) -> usageBefore.put(identity, replica.traffic.usage()));
        // the leaver stays in the step's accounting: it receives nothing after its close
        Map<String, ShardReplica> involved = new LinkedHashMap<>(replicas);
        long begin = System.nanoTime();
        change.run();
        involved.putAll(replicas);
        SlotAssignment assignment = SlotAssignment.of(after);
        awaitSettled(assignment);
        Duration settle = Duration.ofNanos(System.nanoTime() - begin);
        Map<String, TrafficCounter.Usage> traffic = new LinkedHashMap<>();
        involved.forEach((identity, replica) -> traffic.put(identity,
                replica.traffic.usage().minus(usageBefore.getOrDefault(identity, TrafficCounter.Usage.NONE))));
        SlotAssignment previous = SlotAssignment.of(before);
        int slotsMoved = 0;
        for (int slot = 0; slot < Slots.COUNT; slot++) {
            if (previous.owners().isEmpty() || !previous.owners().get(slot).equals(assignment.owners().get(slot))) {
                slotsMoved++;
            }
        }
        long objectsMoved = 0;
        for (long hash : hashes) {
            int slot = Slots.slotOf(hash);
            if (previous.owners().isEmpty() || !previous.owners().get(slot).equals(assignment.owners().get(slot))) {
                objectsMoved++;
            }
        }
        return new Step(name, before.size(), after.size(), slotsMoved / (double) Slots.COUNT, objectsMoved, settle,
                traffic);
    }

    private void start(String identity, InMemoryApiServer server, ShardingSettings group) {
        ShardReplica replica = new ShardReplica(identity, server.apiClient(), group, log,
                (before, after, snapshot) -> announce(identity, after));
        replicas.put(identity, replica);
        replica.start();
    }

    /**
     * Waits until every replica is settled on {@code assignment}: its coordinator settled on that epoch with every
     * replica a live member and no hand-over in progress, its active slots those the assignment gives it (so every
     * slot is active on exactly one replica), its primary watcher synced to those slots and holding their objects.
     */
    private void awaitSettled(SlotAssignment assignment) throws InterruptedException {
        long deadline = System.nanoTime() + SETTLE_LIMIT.toNanos();
        while (!settled(assignment)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("not settled within " + SETTLE_LIMIT + ": " + replicas.values()
                        .stream().map(r -> r.identity + " " + r.sharding().phase() + " active " + r.sharding().active()
                                + " watcher " + r.primary().snapshot().phase() + " synced "
                                + r.primary().snapshot().synced()).toList());
            }
            Thread.sleep(10);
        }
    }

    private boolean settled(SlotAssignment assignment) {
        Set<String> identities = replicas.keySet();
        for (ShardReplica replica : replicas.values()) {
            ShardingSnapshot snapshot = replica.sharding();
            Set<String> members = snapshot.members().stream().filter(ShardingSnapshot.Member::live)
                    .map(ShardingSnapshot.Member::identity).collect(Collectors.toSet());
            Slots slots = assignment.slotsOf(replica.identity);
            if (snapshot.phase() != ShardingSnapshot.Phase.SETTLED || snapshot.handOverSince() != null
                    || !assignment.epochHex().equals(snapshot.epoch()) || !members.equals(identities)
                    || !slots.toString().equals(snapshot.active()) || !replica.watcherSynced()
                    || replica.primary().store().size() != count(slots)) {
                return false;
            }
        }
        return true;
    }

    private int count(Slots slots) {
        int count = 0;
        for (long hash : hashes) {
            if (slots.contains(hash)) {
                count++;
            }
        }
        return count;
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

    /** Pairs of reconciles of one key by two replicas that ran at overlapping times. */
    private List<String> overlaps() {
        Map<ObjectKey, List<ShardReplica.Interval>> byKey = new HashMap<>();
        log.forEach(interval -> byKey.computeIfAbsent(interval.key(), key -> new ArrayList<>()).add(interval));
        List<String> overlaps = new ArrayList<>();
        for (List<ShardReplica.Interval> ofKey : byKey.values()) {
            ofKey.sort(Comparator.comparingLong(ShardReplica.Interval::start));
            ShardReplica.Interval latest = null; // the one that ends last among those seen
            for (ShardReplica.Interval interval : ofKey) {
                if (latest != null && interval.start() < latest.end()) {
                    overlaps.add(interval.key() + ": " + latest.replica() + " and " + interval.replica()
                            + " overlap by " + (latest.end() - interval.start()) / 1_000 + " µs");
                }
                if (latest == null || interval.end() > latest.end()) {
                    latest = interval;
                }
            }
        }
        return overlaps;
    }

    /** Creates the ConfigMaps (about 500 B of JSON each, as the scaling curve's); returns their uids' hashes. */
    private long[] create(InMemoryApiServer server) {
        long[] created = new long[objects];
        for (int i = 0; i < objects; i++) {
            V1ConfigMap configMap = new V1ConfigMap().metadata(new V1ObjectMeta().name(String.format("cm-%07d", i))
                    .namespace(NAMESPACE).putLabelsItem("app", "bench").putAnnotationsItem("owner", "team-" + i % 97))
                    .putDataItem("log-level", "info")
                    .putDataItem("endpoint", "https://svc-" + i % 1000 + ".bench.svc.cluster.local:8443/api/v1")
                    .putDataItem("feature-flags", "search=true,checkout-v2=false,dark-mode=true,beta-" + i % 7
                            + "=true")
                    .putDataItem("timeout", i % 60 + "s").putDataItem("replicas", String.valueOf(i % 5))
                    .putDataItem("cache.ttl", String.valueOf(i % 3600));
            created[i] = UidHash.of(server.create(configMap).getMetadata().getUid());
        }
        return created;
    }

    /** The identities of a run's replicas, for the tables: those of its steps, in order. */
    static List<String> identities(Run run) {
        Set<String> identities = new TreeSet<>();
        run.steps().forEach(step -> identities.addAll(step.traffic().keySet()));
        return List.copyOf(identities);
    }

    @FunctionalInterface
    private interface ThrowingRunnable {
        void run() throws Exception;
    }
}
