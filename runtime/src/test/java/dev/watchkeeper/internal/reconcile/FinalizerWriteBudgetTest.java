package dev.watchkeeper.internal.reconcile;

import static dev.watchkeeper.reconcile.TestObjects.configMap;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.watchkeeper.internal.watch.Watcher;
import dev.watchkeeper.reconcile.FakeWatchApi;
import dev.watchkeeper.reconcile.ManualTime;
import dev.watchkeeper.reconcile.ReconcileResult;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The write budget covers the writes Watchkeeper makes for a reconcile too: adding the finalizer before a first
 * reconcile takes a token, and waits for it on the reconciler's clock once the burst is spent.
 */
@Timeout(10)
class FinalizerWriteBudgetTest {

    @BeforeAll
    static void pollQuickly() {
        Awaitility.setDefaultPollInterval(Duration.ofMillis(5));
    }

    private final FakeWatchApi<V1ConfigMap> watchApi = new FakeWatchApi<>(FinalizerTest.CONFIG_MAPS);
    private final Watcher<V1ConfigMap> configMaps = Watcher.builder(watchApi, FinalizerTest.CONFIG_MAPS).build();
    private final FinalizerTest.PatchServer server = new FinalizerTest.PatchServer(watchApi);
    private final ManualTime time = new ManualTime();
    private final List<String> reconciled = new CopyOnWriteArrayList<>();
    private Reconciler<V1ConfigMap> reconciler;

    @AfterEach
    void closeEverything() {
        reconciler.close(Duration.ofSeconds(1));
        configMaps.close();
        server.close();
    }

    @Test
    void theSecondFinalizerPatchWaitsForItsTokenOnTheReconcilersClock() {
        server.given(configMap("a", "1"), configMap("b", "1"));
        reconciler = Reconciler.builder("test", configMaps, (object, context) -> {
            reconciled.add(object.getMetadata().getName());
            return ReconcileResult.done();
        }).finalizer(new Finalizer<>(FinalizerTest.FINALIZER, (object, context) -> {
        })).apiClient(server.client()).timeSource(time).settings(ReconcilerSettings.defaults().withConcurrency(1)
                .withWriteBudget(new RateLimit(1, 1))).build();
        configMaps.start();
        reconciler.start();

        await().until(() -> !reconciled.isEmpty());
        String first = reconciled.get(0);
        // the clock stands still: the second patch, whenever it reserves, waits a second of it
        await().during(Duration.ofMillis(100)).atMost(Duration.ofSeconds(2))
                .until(() -> reconciled.stream().allMatch(first::equals));
        time.advance(Duration.ofSeconds(1));

        await().until(() -> reconciled.containsAll(List.of("a", "b")));
        assertThat(server.patches("a")).hasSize(1);
        assertThat(server.patches("b")).hasSize(1);
    }
}
