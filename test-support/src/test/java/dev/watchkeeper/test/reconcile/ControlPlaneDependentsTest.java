package dev.watchkeeper.test.reconcile;

import dev.watchkeeper.test.controlplane.KubeControlPlane;
import dev.watchkeeper.test.controlplane.RealKubeApi;
import dev.watchkeeper.test.controlplane.TestNamespace;
import io.kubernetes.client.openapi.ApiClient;
import org.junit.jupiter.api.BeforeEach;

/** {@link DependentsScenarios} on the real control plane, whose garbage collector deletes the dependents. */
@RealKubeApi
class ControlPlaneDependentsTest extends DependentsScenarios {

    private ApiClient client;
    private String namespace;

    @BeforeEach
    void connect(KubeControlPlane plane, TestNamespace namespace) {
        this.client = plane.apiClient();
        this.namespace = namespace.name();
    }

    @Override
    ApiClient client() {
        return client;
    }

    @Override
    String namespace() {
        return namespace;
    }
}
