package dev.watchkeeper.internal.leader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.watchkeeper.internal.backoff.TimeSource;
import dev.watchkeeper.reconcile.ReconcileResult;
import dev.watchkeeper.internal.registry.ReconcilerDeclaration;
import dev.watchkeeper.internal.registry.RegistryServices;
import dev.watchkeeper.internal.registry.WatcherSpec;
import dev.watchkeeper.internal.registry.WatcherFactory;
import dev.watchkeeper.internal.registry.WatchkeeperRegistry;
import dev.watchkeeper.store.ObjectKey;
import dev.watchkeeper.test.apiserver.InMemoryApiServer;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Replicas of one application on one Lease, each a registry with an elector, against the in-memory API server in
 * real time with short durations (lease 2 s, renew deadline 1 s, retry 0.2 s): only the leader reconciles, and an
 * overlap detector over 30 keys, each reconciled again every 20 ms, finds no moment at which two replicas reconcile,
 * across hand-overs by release (the leader stops) and by loss (the leader cannot reach the Lease). Each reconcile
 * stays running for {@link #WORK} — it waits for a simulated API call that {@link #api} answers that much later — so
 * that a reconcile of another replica at about the same time finds it running.
 */
class TwoReplicasTest {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final int KEYS = 30;
    private static final int HAND_OVERS = 20;
    /** How long a reconcile's simulated API call takes to answer. */
    private static final Duration WORK = Duration.ofMillis(2);

    private final InMemoryApiServer server = new InMemoryApiServer().start();
    private final List<Replica> replicas = new CopyOnWriteArrayList<>();
    /** Reconciles running now, by replica. */
    private final Map<String, AtomicInteger> running = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> reconciled = new ConcurrentHashMap<>();
    private final List<String> overlaps = new CopyOnWriteArrayList<>();
    /** The simulated API server: answers each reconcile's call {@link #WORK} after it was made. */
    private final ScheduledExecutorService api = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "simulated-api");
        thread.setDaemon(true);
        return thread;
    });
    private int next;

    @AfterEach
    void stop() {
        replicas.forEach(replica -> replica.registry.stop());
        server.close();
        api.shutdown(); // answers already due still come
    }

    @Test
    void onlyTheLeaderReconcilesAndNoTwoReplicasEverReconcileAtOnceAcrossHandOvers() {
        for (int i = 0; i < KEYS; i++) {
            server.create(new V1ConfigMap().metadata(new V1ObjectMeta().name("cm-" + i).namespace("default")));
        }
        start();
        start();
        Replica leader = awaitNewLeader(null);
        List<Long> releaseMillis = new ArrayList<>();
        List<Long> lossMillis = new ArrayList<>();

        for (int handOver = 1; handOver <= HAND_OVERS; handOver++) {
            awaitReconciles(leader, 20);
            long begin = System.nanoTime();
            Replica previous = leader;
            if (handOver % 5 == 0) { // the leader loses the Lease and stays as a follower
                previous.leaseBlocked = true;
                leader = awaitNewLeader(previous);
                lossMillis.add((System.nanoTime() - begin) / 1_000_000);
                previous.leaseBlocked = false;
            } else { // the leader stops (a rolling update, say); a new replica joins as a follower
                previous.registry.stop();
                replicas.remove(previous);
                leader = awaitNewLeader(previous);
                releaseMillis.add((System.nanoTime() - begin) / 1_000_000);
                start();
            }
        }
        awaitReconciles(leader, 20);

        System.out.println("hand-over by release (real time, ms): " + releaseMillis);
        System.out.println("hand-over by loss (real time, ms): " + lossMillis);
        assertThat(overlaps).isEmpty();
        assertThat(replicas.stream().filter(replica -> replica.elector.isLeader())).containsExactly(leader);
        assertThat(leader.elector.snapshot().transitions()).isEqualTo(HAND_OVERS);
    }

    private Replica awaitNewLeader(Replica previous) {
        await().atMost(WAIT).until(() -> replicas.stream().anyMatch(r -> r != previous && r.elector.isLeader()));
        return replicas.stream().filter(r -> r != previous && r.elector.isLeader()).findFirst().orElseThrow();
    }

    private void awaitReconciles(Replica replica, int count) {
        int before = reconciled.get(replica.name).get();
        await().atMost(WAIT).until(() -> reconciled.get(replica.name).get() >= before + count);
    }

    private void start() {
        String name = "replica-" + next++;
        running.put(name, new AtomicInteger());
        reconciled.put(name, new AtomicInteger());
        Replica replica = new Replica(name);
        ApiClient electionClient = server.apiClient();
        electionClient.setHttpClient(electionClient.getHttpClient().newBuilder().addInterceptor(chain -> {
            if (replica.leaseBlocked && chain.request().url().encodedPath().contains("/leases")) {
                throw new IOException("the Lease is out of reach of " + name);
            }
            return chain.proceed(chain.request());
        }).build());
        replica.elector = LeaderElector.builder(electionClient,
                new LeaderElectionSettings("app-leader", "default", name, Duration.ofSeconds(2),
                        Duration.ofSeconds(1), Duration.ofMillis(200), true)).build();
        ApiClient client = server.apiClient();
        replica.registry = new WatchkeeperRegistry(new RegistryServices(client, TimeSource.system(), null, null, null,
                null), WatcherFactory.http(client), replica.elector);
        replica.registry.registerReconciler(new ReconcilerDeclaration<>("work",
                WatcherSpec.of(V1ConfigMap.class).namespace("default"), List.of(),
                (configMap, context) -> reconcile(name, context.key()), 2, Set.of(), null, "test"));
        replicas.add(replica);
        replica.registry.start();
    }

    private ReconcileResult reconcile(String replica, ObjectKey key) throws InterruptedException {
        running.get(replica).incrementAndGet();
        try {
            running.forEach((other, count) -> {
                if (!other.equals(replica) && count.get() > 0) {
                    overlaps.add(replica + " reconciled " + key + " while " + other + " was reconciling");
                }
            });
            callTheApi();
            reconciled.get(replica).incrementAndGet();
            return ReconcileResult.requeueAfter(Duration.ofMillis(20));
        } finally {
            running.get(replica).decrementAndGet();
        }
    }

    /** The simulated work: a call whose answer comes {@link #WORK} later; waits for it, or until interrupted. */
    private void callTheApi() throws InterruptedException {
        CountDownLatch answered = new CountDownLatch(1);
        ScheduledFuture<?> answer = api.schedule(answered::countDown, WORK.toNanos(), TimeUnit.NANOSECONDS);
        try {
            answered.await();
        } catch (InterruptedException e) {
            answer.cancel(false);
            throw e;
        }
    }

    /** One replica: its registry and elector, and whether its Lease calls fail. */
    private static final class Replica {
        final String name;
        WatchkeeperRegistry registry;
        LeaderElector elector;
        volatile boolean leaseBlocked;

        Replica(String name) {
            this.name = name;
        }

        @Override
        public String toString() {
            return name;
        }
    }
}
