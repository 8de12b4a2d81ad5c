package dev.watchkeeper.test.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.watchkeeper.internal.reconcile.Reconciler;
import dev.watchkeeper.reconcile.ReconcileResult;
import dev.watchkeeper.reconcile.ReconcilerSnapshot;
import dev.watchkeeper.reconcile.Trigger;
import dev.watchkeeper.internal.registry.ReconcilerDeclaration;
import dev.watchkeeper.internal.registry.RegistryServices;
import dev.watchkeeper.internal.registry.WatchkeeperRegistry;
import dev.watchkeeper.internal.registry.WatcherSpec;
import dev.watchkeeper.store.ObjectKey;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** Debounce with the events coming from a server over HTTP: a burst of updates of one object, one reconcile. */
class DebounceOnInMemoryServerTest extends InMemoryServerTest {

    private static final Duration WINDOW = Duration.ofSeconds(3);
    private static final int UPDATES = 10;

    /** A reconcile: the version it saw and when it started. */
    private record Reconciled(String resourceVersion, long nanos) {
    }

    @Test
    void aBurstOfUpdatesMakesOneReconcileOfTheLastVersionOneWindowAfterTheFirst() throws Exception {
        CoreV1Api core = new CoreV1Api(server.apiClient());
        V1ConfigMap current = core.createNamespacedConfigMap("default", new V1ConfigMap()
                .metadata(new V1ObjectMeta().name("burst")).data(Map.of("v", "0"))).execute();
        WatchkeeperRegistry registry = new WatchkeeperRegistry(RegistryServices.of(server.apiClient()));
        List<Reconciled> reconciled = new CopyOnWriteArrayList<>();
        try {
            Reconciler<V1ConfigMap> reconciler = registry.registerReconciler(new ReconcilerDeclaration<>("burst",
                    WatcherSpec.of(V1ConfigMap.class).namespace("default"), List.of(), (configMap, context) -> {
                        reconciled.add(new Reconciled(configMap.getMetadata().getResourceVersion(),
                                System.nanoTime()));
                        return ReconcileResult.done();
                    }, 1, Set.of(Trigger.ALL), null, "test", WINDOW, List.of(), null));
            registry.start();
            await().atMost(Duration.ofSeconds(10)).until(() -> reconciled.size() == 1);

            long first = System.nanoTime();
            for (int i = 1; i <= UPDATES; i++) {
                current = core.replaceNamespacedConfigMap("burst", "default", current.data(Map.of("v", "" + i)))
                        .execute();
            }
            Duration burst = Duration.ofNanos(System.nanoTime() - first);
            assertThat(burst).as("the updates must fit in the window for this test").isLessThan(WINDOW);
            String last = current.getMetadata().getResourceVersion();

            await().atMost(Duration.ofSeconds(15)).until(() -> reconciled.size() >= 2);
            await().atMost(Duration.ofSeconds(5)).until(() -> idle(reconciler, last));

            assertThat(reconciled).as("one reconcile for the burst").hasSize(2);
            assertThat(reconciled.get(1).resourceVersion()).isEqualTo(last);
            assertThat(Duration.ofNanos(reconciled.get(1).nanos() - first)).as("not before the window ended")
                    .isGreaterThanOrEqualTo(WINDOW);
        } finally {
            registry.stop();
        }
    }

    /** Nothing queued, scheduled or running, and the store holds the last version: no reconcile is left to come. */
    private static boolean idle(Reconciler<V1ConfigMap> reconciler, String lastVersion) {
        ReconcilerSnapshot snapshot = reconciler.snapshot();
        return snapshot.queueDepth() == 0 && snapshot.scheduled() == 0 && snapshot.inFlight() == 0
                && reconciler.primary().store().get(new ObjectKey("default", "burst"))
                        .map(object -> lastVersion.equals(object.getMetadata().getResourceVersion())).orElse(false);
    }
}
