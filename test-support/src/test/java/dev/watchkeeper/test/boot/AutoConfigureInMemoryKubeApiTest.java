package dev.watchkeeper.test.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.watchkeeper.internal.registry.WatchkeeperRegistry;
import dev.watchkeeper.test.apiserver.InMemoryApiServer;
import dev.watchkeeper.watch.WatcherPhase;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;
import org.springframework.test.annotation.DirtiesContext;

// Closed after the class: a cached context would keep its server's threads, which other tests of this module count.
@DirtiesContext
@SpringBootTest
@AutoConfigureInMemoryKubeApi
class AutoConfigureInMemoryKubeApiTest {

    @Autowired
    InMemoryApiServer server;

    @Autowired
    ApiClient apiClient;

    @Autowired
    ApplicationContext context;

    @Autowired
    WatchkeeperRegistry registry;

    @Autowired
    TinyApp.SeenConfigMaps seen;

    @Test
    void theApplicationsOnlyApiClientIsBuiltFromTheConnectionToTheRunningServer() {
        Map<String, ApiClient> clients = context.getBeansOfType(ApiClient.class);

        assertThat(clients).containsOnlyKeys("apiClient");
        assertThat(context.getBeansOfType(KubeApiConnection.class)).containsOnlyKeys("inMemoryApiServerConnection");
        assertThat(apiClient.getBasePath()).isEqualTo(server.url());
        assertThat(registry.services().apiClient()).isSameAs(apiClient);
    }

    @Test
    void objectsSeededThroughTheServerBeanReachTheApplicationsReconcilers() {
        server.create(new V1ConfigMap().metadata(new V1ObjectMeta().namespace("default").name("seeded")));

        await().atMost(Duration.ofSeconds(10)).until(() -> seen.names().contains("seeded"));
    }

    @Test
    void faultsInjectedThroughTheServerBeanReachTheApplicationsWatchers() {
        var watcher = registry.watcher("configmaps@default").orElseThrow();
        await().atMost(Duration.ofSeconds(10)).until(() -> watcher.snapshot().phase() == WatcherPhase.WATCHING);

        server.outage(Duration.ofSeconds(2));

        await().atMost(Duration.ofSeconds(5)).until(() -> watcher.snapshot().phase() == WatcherPhase.BACKING_OFF);
        await().atMost(Duration.ofSeconds(15)).until(() -> watcher.snapshot().phase() == WatcherPhase.WATCHING);
    }
}
