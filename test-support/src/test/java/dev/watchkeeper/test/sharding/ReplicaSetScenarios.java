package dev.watchkeeper.test.sharding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.watchkeeper.internal.shard.ShardingSettings;
import dev.watchkeeper.store.ObjectKey;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Active-active sharding end to end: replicas of one application in this JVM, each a sharded
 * {@code WatchkeeperRegistry} with its own {@code ShardCoordinator} and {@code ApiClient}, in real time with short
 * Lease timing ({@link ReplicaSet#LEASE}), reconcile ConfigMaps that a writer creates and updates all along,
 * while the set goes 1 → 3 → 2 (one closes) → 3 → 2 (one is killed without releasing its Lease). One subclass per
 * kind of server; on the real one its ShardedListAndWatch gate is on, so the watchers' shard selectors filter there.
 *
 * <p>It proves: every object's last reconcile saw its final resourceVersion; no key was reconciled by two replicas at
 * overlapping times; the killed replica's slots are active elsewhere no sooner than a lease duration after its last
 * renewal and within {@link #FAILOVER_BOUND}; at the end the live replicas' active slots cover the 128 slots each
 * once and their stores hold every object once.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ReplicaSetScenarios {

    private static final Duration WAIT = Duration.ofSeconds(60);
    /**
     * From a killed replica's last renewal until the others have its slots active, in real time: the others see that
     * renewal at their next read, up to a retry period later, and count it expired a lease duration after that (by
     * their own clock), waking for that moment; nobody else claims the slots it held, so they take them at that round
     * (ShardCoordinatorTest proves lease duration + retry period in virtual time). Plus 250 ms for the calls of that
     * round and the test's own polling (20 ms) on two busy cores.
     */
    private static final Duration FAILOVER_BOUND = ReplicaSet.LEASE.plus(ReplicaSet.RETRY).plusMillis(250);

    private ReplicaSet set;
    private Churn churn;

    /** A new client of the server under test, for one replica (or the writer). */
    abstract ApiClient newClient();

    /** Where the ConfigMaps and the member Leases live. */
    abstract String namespace();

    /** How many ConfigMaps the run ends with. */
    abstract int objects();

    @AfterEach
    void stop() {
        if (churn != null) {
            churn.close();
        }
        if (set != null) {
            set.close();
        }
    }

    @Test
    void replicasComingAndGoingReconcileEveryObjectToItsLastVersionAndNeverOneKeyTwiceAtOnce() throws Exception {
        churn = new Churn(newClient(), namespace(), objects(), 42);
        churn.createUpTo(objects() * 3 / 4);
        set = new ReplicaSet(this::newClient, namespace());
        churn.start(10);

        set.start("replica-0");
        Duration first = set.awaitSettled(WAIT);
        set.start("replica-1");
        set.start("replica-2");
        Duration join = set.awaitSettled(WAIT);
        long begin = System.nanoTime();
        set.all().get(1).close();
        Duration leave = Duration.ofNanos(System.nanoTime() - begin).plus(set.awaitSettled(WAIT));
        set.start("replica-3");
        Duration rejoin = set.awaitSettled(WAIT);

        Replica killed = set.all().get(2);
        killed.kill();
        Instant lastRenewal = lastRenewal(killed); // read now: the others delete its Lease once it expired
        List<Replica> others = set.live();
        await().atMost(WAIT).pollInterval(Duration.ofMillis(20)).until(() -> others.stream()
                .allMatch(replica -> replica.snapshot().members().stream()
                        .noneMatch(member -> member.identity().equals(killed.identity) && member.live())));
        Instant expired = Instant.now();
        await().atMost(WAIT).pollInterval(Duration.ofMillis(20)).until(() -> ReplicaSet.coverEachSlotOnce(others));
        Instant covered = Instant.now();
        Duration failover = Duration.between(lastRenewal, covered);

        churn.finish();
        Map<ObjectKey, String> onServer = churn.onServer();
        await().atMost(WAIT).untilAsserted(() -> assertThat(set.intervals().lastVersions())
                .as("the resourceVersion each object was last reconciled at").isEqualTo(onServer));
        set.assertConsistent(onServer.keySet());

        set.print(getClass().getSimpleName() + ": " + onServer.size() + " objects, " + churn.updates()
                + " updates during the run");
        System.out.printf("  settled after: first replica %d ms, 1 → 3 %d ms, 3 → 2 (close) %d ms, 2 → 3 %d ms;"
                + " killed replica expired to all others %d ms and its slots active elsewhere %d ms after its last"
                + " renewal%n", first.toMillis(), join.toMillis(), leave.toMillis(), rejoin.toMillis(),
                Duration.between(lastRenewal, expired).toMillis(), failover.toMillis());
        assertThat(failover).as("time from the killed replica's last renewal until the others cover its slots")
                .isGreaterThanOrEqualTo(ReplicaSet.LEASE).isLessThanOrEqualTo(FAILOVER_BOUND);
    }

    /**
     * A finalizer is never stranded by a hand-over: objects deleted while two replicas join, so that their slots move,
     * are each cleaned up by a replica that held them, and none is left Terminating. The replica an object leaves
     * does not release its finalizer; the one it moves to runs the cleanup.
     */
    @Test
    void objectsDeletedWhileTheirSlotsMoveAreEachCleanedUpAndNoneIsLeftTerminating() throws Exception {
        int count = Math.min(objects(), 300);
        churn = new Churn(newClient(), namespace(), count, 7);
        churn.createUpTo(count);
        set = new ReplicaSet(this::newClient, namespace()).withFinalizer();
        set.start("replica-0");
        set.awaitSettled(WAIT);
        CoreV1Api api = new CoreV1Api(newClient());
        await().atMost(WAIT).until(() -> labelled(api).stream()
                .filter(cm -> cm.getMetadata().getFinalizers() != null
                        && cm.getMetadata().getFinalizers().contains(Replica.FINALIZER)).count() == count);
        Set<ObjectKey> deleted = labelled(api).stream().map(ObjectKey::of).collect(Collectors.toSet());

        set.start("replica-1");
        set.start("replica-2"); // slots move from replica-0 while the objects are being deleted
        for (ObjectKey key : deleted) {
            api.deleteNamespacedConfigMap(key.name(), key.namespace()).execute();
        }

        await().atMost(WAIT).untilAsserted(() -> assertThat(labelled(api)).as("objects left on the server").isEmpty());
        set.awaitSettled(WAIT);
        assertThat(set.cleanups().keySet()).as("objects cleaned up").isEqualTo(deleted);
        assertThat(set.doubleActive()).isEmpty();
        Map<String, Long> byReplica = set.cleanups().values().stream().flatMap(List::stream)
                .collect(Collectors.groupingBy(identity -> identity, TreeMap::new, Collectors.counting()));
        System.out.printf("%s: %d objects deleted while 1 → 3 replicas; cleanups by replica %s%n",
                getClass().getSimpleName(), deleted.size(), byReplica);
    }

    private List<V1ConfigMap> labelled(CoreV1Api api) throws Exception {
        return api.listNamespacedConfigMap(namespace()).labelSelector(Replica.LABEL).execute().getItems();
    }

    /** The renew time the killed replica last wrote into its member Lease (its own clock: this JVM's). */
    private Instant lastRenewal(Replica killed) throws Exception {
        String lease = new ShardingSettings("replicas", namespace(), killed.identity, ReplicaSet.LEASE,
                ReplicaSet.RENEW_DEADLINE, ReplicaSet.RETRY).memberLeaseName();
        return new CoordinationV1Api(newClient()).readNamespacedLease(lease, namespace()).execute().getSpec()
                .getRenewTime().toInstant();
    }
}
