package dev.watchkeeper.readme;

import dev.watchkeeper.store.Store;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import java.time.Duration;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.stereotype.Component;

// tag::store[]
@Component
class Settings {

    private final Store<V1ConfigMap> configMaps;

    Settings(@Qualifier("app-config") Store<V1ConfigMap> configMaps) {
        this.configMaps = configMaps;
    }

    String greeting() throws InterruptedException {
        if (!configMaps.awaitReady(Duration.ofSeconds(30))) {
            throw new IllegalStateException("app-config has not synced yet");
        }
        return configMaps.get("default", "app-config")
                .map(c -> c.getData().get("greeting"))
                .orElse("hello");
    }
}
// end::store[]
