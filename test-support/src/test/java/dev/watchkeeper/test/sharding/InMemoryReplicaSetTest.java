package dev.watchkeeper.test.sharding;

import dev.watchkeeper.test.apiserver.InMemoryApiServer;
import io.kubernetes.client.openapi.ApiClient;
import org.junit.jupiter.api.AfterAll;

/** The replica-set scenario against the in-memory API server (which honours shard selectors), with 500 objects. */
class InMemoryReplicaSetTest extends ReplicaSetScenarios {

    private final InMemoryApiServer server = new InMemoryApiServer().start();

    @Override
    ApiClient newClient() {
        return server.apiClient();
    }

    @Override
    String namespace() {
        return "default";
    }

    @Override
    int objects() {
        return 500;
    }

    @AfterAll
    void close() {
        server.close();
    }
}
