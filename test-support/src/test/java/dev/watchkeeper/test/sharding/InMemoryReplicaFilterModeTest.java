package dev.watchkeeper.test.sharding;

import dev.watchkeeper.test.apiserver.InMemoryApiServer;
import io.kubernetes.client.openapi.ApiClient;
import org.junit.jupiter.api.AfterAll;

/** {@link ReplicaFilterModeScenarios} on two in-memory API servers: one applies shard selectors, one ignores them. */
class InMemoryReplicaFilterModeTest extends ReplicaFilterModeScenarios {

    private final InMemoryApiServer applying = new InMemoryApiServer().start();
    private final InMemoryApiServer ignoring = InMemoryApiServer.builder().shardSelectors(false).build().start();

    @Override
    ApiClient newClient(boolean shardSelectors) {
        return (shardSelectors ? applying : ignoring).apiClient();
    }

    @Override
    String namespace(boolean shardSelectors) {
        return "default";
    }

    @AfterAll
    void close() {
        applying.close();
        ignoring.close();
    }
}
