package dev.watchkeeper.readme;

import dev.watchkeeper.backoff.BackOffSettings;
import dev.watchkeeper.resource.ResourceType;
import dev.watchkeeper.watch.WatchScope;
import dev.watchkeeper.watch.Watcher;
import dev.watchkeeper.watch.http.HttpWatchApi;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

// tag::without-spring[]
class AppConfigWatch {

    private static final Logger log = LoggerFactory.getLogger(AppConfigWatch.class);

    static Optional<V1ConfigMap> appConfig(ApiClient apiClient) throws InterruptedException {
        try (Watcher<V1ConfigMap> watcher = HttpWatchApi.watcher(apiClient, ResourceType.of(V1ConfigMap.class))
                .scope(WatchScope.namespace("default").withLabelSelector("app=web"))
                .backOff(BackOffSettings.clientGo())
                .build()) {
            watcher.addListener(event -> log.info("{}", event));
            watcher.start();
            watcher.store().awaitReady(Duration.ofSeconds(30));
            return watcher.store().get("default", "app-config");
        }
    }
}
// end::without-spring[]
