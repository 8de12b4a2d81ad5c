package dev.watchkeeper.test.reconcile;

import dev.watchkeeper.test.apiserver.InMemoryApiServer;
import io.kubernetes.client.openapi.ApiClient;
import org.junit.jupiter.api.AfterEach;

/** {@link DependentsScenarios} on the in-memory API server. */
class InMemoryDependentsTest extends DependentsScenarios {

    private final InMemoryApiServer server = new InMemoryApiServer().start();

    @AfterEach
    void stop() {
        server.close();
    }

    @Override
    ApiClient client() {
        return server.apiClient();
    }

    @Override
    String namespace() {
        return "default";
    }
}
