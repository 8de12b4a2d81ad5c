package dev.watchkeeper.test.sharding;

import dev.watchkeeper.test.controlplane.KubeControlPlane;
import dev.watchkeeper.test.controlplane.RealKubeApi;
import dev.watchkeeper.test.controlplane.TestNamespace;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * {@link ReplicaFilterModeScenarios} on the real control plane: started with the ShardedListAndWatch gate on, and the
 * shared one with it off (its default), each in a namespace of the test class's name.
 */
@RealKubeApi
class ControlPlaneReplicaFilterModeTest extends ReplicaFilterModeScenarios {

    private static final List<String> SHARD_SELECTORS = List.of("--feature-gates=ShardedListAndWatch=true");

    private KubeControlPlane gated;
    private KubeControlPlane plain;
    private String namespace;

    @BeforeAll
    void createNamespace(TestNamespace shared) throws Exception {
        plain = KubeControlPlane.shared(); // the extension made the namespace there
        gated = KubeControlPlane.shared(SHARD_SELECTORS);
        namespace = shared.name();
        new CoreV1Api(gated.apiClient()).createNamespace(new V1Namespace().metadata(new V1ObjectMeta()
                .name(namespace))).execute();
    }

    @AfterAll
    void deleteNamespace() throws Exception {
        new CoreV1Api(gated.apiClient()).deleteNamespace(namespace).execute();
    }

    @Override
    ApiClient newClient(boolean shardSelectors) {
        return (shardSelectors ? gated : plain).apiClient();
    }

    @Override
    String namespace(boolean shardSelectors) {
        return namespace;
    }
}
