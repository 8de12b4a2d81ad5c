package dev.watchkeeper.internal.api;

import dev.watchkeeper.test.apiserver.InMemoryApiServer;
import io.kubernetes.client.openapi.ApiClient;
import org.junit.jupiter.api.AfterAll;

/** The write failure scenarios against the in-memory server, which forbids {@code configmaps}. */
class WriteFailureOnInMemoryServerTest extends WriteFailureScenarios {

    private final InMemoryApiServer server = new InMemoryApiServer().start();

    @AfterAll
    void stop() {
        server.close();
    }

    @Override
    ApiClient deniedClient() {
        server.forbid("configmaps");
        return server.apiClient();
    }

    @Override
    String namespace() {
        return "default";
    }
}
