package dev.watchkeeper.internal.events;

import dev.watchkeeper.test.controlplane.KubeControlPlane;
import dev.watchkeeper.test.controlplane.RealKubeApi;
import dev.watchkeeper.test.controlplane.TestNamespace;
import io.kubernetes.client.openapi.ApiClient;
import org.junit.jupiter.api.BeforeAll;

/** The recorder scenarios against the real control plane: kube-apiserver validates every Event it writes. */
@RealKubeApi
class RecorderOnControlPlaneTest extends RecorderScenarios {

    private KubeControlPlane plane;
    private TestNamespace namespace;

    @BeforeAll
    void connect(KubeControlPlane plane, TestNamespace namespace) {
        this.plane = plane;
        this.namespace = namespace;
    }

    @Override
    ApiClient apiClient() {
        return plane.apiClient();
    }

    @Override
    String namespace() {
        return namespace.name();
    }
}
