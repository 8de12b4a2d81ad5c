package dev.watchkeeper.readme;

import dev.watchkeeper.registry.WatcherDeclaration;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration
class WatcherDeclarations {

    // tag::watcher-declaration[]
    @Bean
    WatcherDeclaration<V1ConfigMap> webConfig() {
        return WatcherDeclaration.of(V1ConfigMap.class)
                .namespace("default")
                .labelSelector("app=web")
                .named("web-config");          // default: the bean's name, here "webConfig"
    }
    // end::watcher-declaration[]
}
