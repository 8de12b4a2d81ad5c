package dev.watchkeeper.readme;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.watchkeeper.registry.WatchkeeperState;
import dev.watchkeeper.store.Store;
import dev.watchkeeper.test.apiserver.InMemoryApiServer;
import dev.watchkeeper.test.boot.AutoConfigureInMemoryKubeApi;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;

// tag::in-memory[]
@SpringBootTest
@AutoConfigureInMemoryKubeApi
class InMemoryServerTest {

    @Autowired
    InMemoryApiServer server;

    @Autowired
    @Qualifier("configmaps@default")     // the cache of the application's ConfigMap reconciler
    Store<V1ConfigMap> configMaps;

    @Autowired
    WatchkeeperState state;

    @Test
    void theCacheFollowsTheServer() {
        V1ConfigMap created = server.create(new V1ConfigMap()
                .metadata(new V1ObjectMeta().namespace("default").name("app-config"))
                .data(Map.of("greeting", "hello")));
        await().until(() -> configMaps.get("default", "app-config").isPresent());

        server.update(created.data(Map.of("greeting", "hi")));
        await().until(() -> "hi".equals(configMaps.get("default", "app-config").orElseThrow().getData().get("greeting")));

        assertThat(server.delete("", "configmaps", "default", "app-config")).isTrue();
        await().until(() -> configMaps.get("default", "app-config").isEmpty());
        assertThat(server.get(V1ConfigMap.class, "default", "app-config")).isEmpty();
        assertThat(state.watcherSnapshot("configmaps@default").orElseThrow().synced()).isTrue();
    }
}
// end::in-memory[]
