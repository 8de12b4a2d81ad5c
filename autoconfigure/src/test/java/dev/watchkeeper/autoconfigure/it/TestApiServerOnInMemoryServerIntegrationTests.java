package dev.watchkeeper.autoconfigure.it;

import dev.watchkeeper.test.apiserver.InMemoryApiServer;
import dev.watchkeeper.test.boot.AutoConfigureInMemoryKubeApi;
import org.springframework.beans.factory.annotation.Autowired;

/** {@link TestApiServerContract} on the in-memory API server of {@code @AutoConfigureInMemoryKubeApi}. */
@AutoConfigureInMemoryKubeApi
class TestApiServerOnInMemoryServerIntegrationTests extends TestApiServerContract {

    @Autowired
    InMemoryApiServer server;

    @Override
    String serverUrl() {
        return server.url();
    }

    @Override
    String namespace() {
        return "default";
    }
}
