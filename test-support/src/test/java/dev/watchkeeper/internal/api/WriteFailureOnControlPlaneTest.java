package dev.watchkeeper.internal.api;

import dev.watchkeeper.test.controlplane.KubeControlPlane;
import dev.watchkeeper.test.controlplane.RealKubeApi;
import dev.watchkeeper.test.controlplane.TestNamespace;
import io.kubernetes.client.openapi.ApiClient;
import org.junit.jupiter.api.BeforeAll;

/** The write failure scenarios against the real control plane, as its unprivileged user. */
@RealKubeApi
class WriteFailureOnControlPlaneTest extends WriteFailureScenarios {

    private KubeControlPlane plane;
    private TestNamespace namespace;

    @BeforeAll
    void connect(KubeControlPlane plane, TestNamespace namespace) {
        this.plane = plane;
        this.namespace = namespace;
    }

    @Override
    ApiClient deniedClient() {
        return plane.unprivilegedApiClient();
    }

    @Override
    String namespace() {
        return namespace.name();
    }
}
