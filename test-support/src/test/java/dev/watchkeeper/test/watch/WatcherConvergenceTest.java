package dev.watchkeeper.test.watch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.watchkeeper.internal.backoff.BackOffSettings;
import dev.watchkeeper.internal.resource.ResourceType;
import dev.watchkeeper.test.EventRecorder;
import dev.watchkeeper.test.apiserver.InMemoryApiServer;
import dev.watchkeeper.internal.watch.WatchOptions;
import dev.watchkeeper.internal.watch.WatchScope;
import dev.watchkeeper.internal.watch.Watcher;
import dev.watchkeeper.watch.WatcherPhase;
import dev.watchkeeper.internal.watch.http.HttpWatchApi;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Fidelity (c): our watcher against the stateful in-memory API server converges to the server's state through a
 * compaction (410 on rewatch, relist) and through an outage (backoff, then recovery).
 */
class WatcherConvergenceTest {

    private static final Duration WAIT = Duration.ofSeconds(20);
    /** Short waits, so recovery takes little real time; the curve itself is pinned in WatcherScenariosTest. */
    private static final BackOffSettings QUICK = new BackOffSettings(Duration.ofMillis(50), 2.0,
            Duration.ofMillis(400), 0.5, Duration.ofSeconds(120), null);

    private final InMemoryApiServer server = new InMemoryApiServer();
    private final EventRecorder<V1ConfigMap> recorder = new EventRecorder<>();
    private Watcher<V1ConfigMap> watcher;

    @BeforeEach
    void start() {
        server.start();
        server.create(configMap("a", "1"));
        server.create(configMap("b", "1"));
        watcher = HttpWatchApi.watcher(server.apiClient(), ResourceType.of(V1ConfigMap.class))
                .scope(WatchScope.namespace("default"))
                .options(WatchOptions.defaults().withTimeout(Duration.ofSeconds(30)))
                .backOff(QUICK)
                .build();
        watcher.addListener(recorder);
        watcher.start();
        recorder.awaitEvent("InitDone", WAIT);
        // The watch must be open before faults are injected, or a compaction lands before it starts.
        await().atMost(WAIT).until(() -> server.openWatches() > 0);
    }

    @AfterEach
    void stop() {
        watcher.close();
        server.close();
    }

    @Test
    void convergesThroughACompaction() {
        server.compact(); // open watches get ERROR 410; history is gone, so only a relist can catch up
        server.delete("", "configmaps", "default", "a");
        server.create(configMap("c", "1"));
        V1ConfigMap b = server.get(V1ConfigMap.class, "default", "b").orElseThrow();
        b.setData(Map.of("v", "2"));
        server.update(b);

        awaitStoreMatchesServer();
        assertThat(recorder.events()).contains("Error(WatchError 410)");
        assertThat(watcher.snapshot().counts().relists()).isPositive();
    }

    @Test
    void convergesThroughAnOutage() {
        server.outage(Duration.ofSeconds(2));
        server.create(configMap("c", "1"));
        await().atMost(WAIT).until(() -> watcher.snapshot().consecutiveFailures() > 0
                || watcher.snapshot().phase() == WatcherPhase.BACKING_OFF);
        server.endOutage();
        server.delete("", "configmaps", "default", "a");

        awaitStoreMatchesServer();
        assertThat(watcher.snapshot().phase()).isEqualTo(WatcherPhase.WATCHING);
    }

    private void awaitStoreMatchesServer() {
        await().atMost(WAIT).untilAsserted(() -> {
            List<V1ConfigMap> truth = server.list(V1ConfigMap.class, "default");
            assertThat(watcher.store().list())
                    .extracting(c -> c.getMetadata().getName() + "@" + c.getMetadata().getResourceVersion())
                    .containsExactlyElementsOf(truth.stream()
                            .map(c -> c.getMetadata().getName() + "@" + c.getMetadata().getResourceVersion())
                            .toList());
        });
    }

    private static V1ConfigMap configMap(String name, String value) {
        return new V1ConfigMap().apiVersion("v1").kind("ConfigMap")
                .metadata(new V1ObjectMeta().namespace("default").name(name)).data(Map.of("v", value));
    }
}
