package dev.watchkeeper.readme;

import dev.watchkeeper.backoff.BackOffSettings;
import dev.watchkeeper.registry.WatcherDefinition;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import java.time.Duration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration
class WatcherDefinitions {

    // tag::watcher-definition[]
    @Bean
    WatcherDefinition<V1ConfigMap> webConfig() {
        return WatcherDefinition.of(V1ConfigMap.class)
                .namespace("default")
                .labelSelector("app=web")
                .backOff(BackOffSettings.clientGo().withMaxElapsedTime(Duration.ofMinutes(30)))
                .named("web-config");          // default: the bean's name, here "webConfig"
    }
    // end::watcher-definition[]
}
