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
 * The replica-set scenario against the real control plane started with the ShardedListAndWatch gate on (so the
 * watchers' shard selectors filter on the server), with 2,000 objects, in a namespace of the test class's name.
 */
@RealKubeApi
class ControlPlaneReplicaSetTest extends ReplicaSetScenarios {

    private static final List<String> SHARD_SELECTORS = List.of("--feature-gates=ShardedListAndWatch=true");

    private KubeControlPlane plane;
    private String namespace;

    @BeforeAll
    void createNamespace(TestNamespace shared) throws Exception {
        plane = KubeControlPlane.shared(SHARD_SELECTORS);
        namespace = shared.name(); // unique per class; created here on the gated control plane too
        new CoreV1Api(plane.apiClient()).createNamespace(new V1Namespace().metadata(new V1ObjectMeta()
                .name(namespace))).execute();
    }

    @AfterAll
    void deleteNamespace() throws Exception {
        new CoreV1Api(plane.apiClient()).deleteNamespace(namespace).execute();
    }

    @Override
    ApiClient newClient() {
        return plane.apiClient();
    }

    @Override
    String namespace() {
        return namespace;
    }

    @Override
    int objects() {
        return 2_000;
    }
}
