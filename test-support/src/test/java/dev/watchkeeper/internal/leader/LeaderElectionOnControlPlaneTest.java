package dev.watchkeeper.internal.leader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.watchkeeper.reconcile.ReconcileResult;
import dev.watchkeeper.internal.registry.ReconcilerDeclaration;
import dev.watchkeeper.internal.registry.RegistryServices;
import dev.watchkeeper.internal.registry.WatcherSpec;
import dev.watchkeeper.internal.registry.WatchkeeperRegistry;
import dev.watchkeeper.test.controlplane.KubeControlPlane;
import dev.watchkeeper.test.controlplane.RealKubeApi;
import dev.watchkeeper.test.VirtualTime;
import dev.watchkeeper.test.controlplane.TestNamespace;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Lease;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * Replicas on one Lease of the real API server, handing over by release three times: the order of what happens
 * (acquired, reconciled, lost, the next one acquired …) is asserted, not its timing; and a release after someone
 * else wrote the Lease.
 */
@RealKubeApi
class LeaderElectionOnControlPlaneTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    private final List<String> log = new CopyOnWriteArrayList<>();

    @Test
    void replicasTakeTurnsAndEachReconcilesOnlyBetweenItsAcquireAndItsLoss(KubeControlPlane plane,
            TestNamespace namespace) throws Exception {
        CoreV1Api core = new CoreV1Api(plane.apiClient());
        for (int i = 0; i < 5; i++) {
            core.createNamespacedConfigMap(namespace.name(),
                    new V1ConfigMap().metadata(new V1ObjectMeta().name("cm-" + i))).execute();
        }
        List<WatchkeeperRegistry> replicas = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            replicas.add(replica(plane, namespace, "replica-" + i));
        }
        try {
            replicas.get(0).start();
            await().atMost(WAIT).until(() -> log.contains("replica-0 reconciled"));
            for (int i = 1; i < 4; i++) {
                String next = "replica-" + i;
                replicas.get(i).start(); // a follower until the previous one releases the Lease
                replicas.get(i - 1).stop(); // stops its reconcilers, then releases the Lease
                await().atMost(WAIT).until(() -> log.contains(next + " reconciled"));
            }
        } finally {
            replicas.forEach(WatchkeeperRegistry::stop);
        }

        List<String> order = new ArrayList<>(); // repeated reconciles as one
        log.forEach(line -> {
            if (order.isEmpty() || !order.get(order.size() - 1).equals(line)) {
                order.add(line);
            }
        });
        assertThat(order).containsExactly(
                "replica-0 acquired", "replica-0 reconciled", "replica-0 lost",
                "replica-1 acquired", "replica-1 reconciled", "replica-1 lost",
                "replica-2 acquired", "replica-2 reconciled", "replica-2 lost",
                "replica-3 acquired", "replica-3 reconciled", "replica-3 lost");
        V1Lease lease = new CoordinationV1Api(plane.apiClient()).readNamespacedLease("app-leader", namespace.name())
                .execute();
        assertThat(lease.getSpec().getLeaseTransitions()).isEqualTo(3);
        assertThat(lease.getSpec().getHolderIdentity()).isNull(); // the last one released it
    }

    /**
     * The release after someone else wrote the Lease since the leader's last renewal (an annotation): the real API
     * server answers a write over the leader's last version 409, so the release must read the Lease first. Both
     * electors run on one virtual clock, stopped while the leader closes: the follower takes over within one jittered
     * retry period of it, not after the lease duration.
     */
    @Test
    void aLeaseAnnotatedSinceTheLastRenewalIsStillReleased(KubeControlPlane plane, TestNamespace namespace)
            throws Exception {
        String name = "annotated-leader"; // not the other test's Lease: the namespace is the class's
        VirtualTime time = new VirtualTime();
        time.pauseAt(Duration.ofSeconds(1));
        LeaderElectionSettings settings = LeaderElectionSettings.of(name, namespace.name(), "a");
        LeaderElector a = LeaderElector.builder(plane.apiClient(), settings).timeSource(time).build();
        LeaderElector b = LeaderElector.builder(plane.apiClient(), settings.withIdentity("b")).timeSource(time).build();
        List<Instant> bAcquired = new CopyOnWriteArrayList<>();
        b.addListener(new Transition(() -> bAcquired.add(time.now()), () -> { }));
        try {
            a.start();
            time.awaitPaused(WAIT);
            assertThat(a.isLeader()).isTrue();
            b.start();
            await().atMost(WAIT).until(() -> "a".equals(b.snapshot().holder()) && time.isPaused());
            CoordinationV1Api leases = new CoordinationV1Api(plane.apiClient());
            V1Lease lease = leases.readNamespacedLease(name, namespace.name()).execute();
            lease.getMetadata().setAnnotations(Map.of("touched", "yes"));
            leases.replaceNamespacedLease(name, namespace.name(), lease).execute();

            a.close();
            Instant releasedAt = time.now();

            lease = leases.readNamespacedLease(name, namespace.name()).execute();
            assertThat(lease.getSpec().getHolderIdentity()).isNull();
            assertThat(lease.getMetadata().getAnnotations()).containsEntry("touched", "yes");
            time.resume();
            await().atMost(WAIT).until(b::isLeader);
            assertThat(Duration.between(releasedAt, bAcquired.get(0)))
                    .isLessThanOrEqualTo(settings.retryPeriod().multipliedBy(22).dividedBy(10));
        } finally {
            a.close();
            b.close();
        }
    }

    private WatchkeeperRegistry replica(KubeControlPlane plane, TestNamespace namespace, String name) {
        LeaderElector elector = LeaderElector.builder(plane.apiClient(), new LeaderElectionSettings("app-leader",
                namespace.name(), name, Duration.ofSeconds(2), Duration.ofSeconds(1), Duration.ofMillis(200), true))
                .build();
        elector.addListener(new Transition(() -> log.add(name + " acquired"), () -> { })); // before reconcilers start
        WatchkeeperRegistry registry = new WatchkeeperRegistry(RegistryServices.of(plane.apiClient()), elector);
        elector.addListener(new Transition(() -> { }, () -> log.add(name + " lost"))); // after they stopped
        registry.registerReconciler(new ReconcilerDeclaration<>("work",
                WatcherSpec.of(V1ConfigMap.class).namespace(namespace.name()), List.of(),
                (configMap, context) -> {
                    log.add(name + " reconciled");
                    return ReconcileResult.requeueAfter(Duration.ofMillis(50));
                }, 1, Set.of(), null, "test"));
        return registry;
    }

    private record Transition(Runnable started, Runnable stopped) implements LeadershipListener {
        @Override
        public void onStartedLeading() {
            started.run();
        }

        @Override
        public void onStoppedLeading() {
            stopped.run();
        }
    }
}
