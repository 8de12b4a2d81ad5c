package dev.watchkeeper.autoconfigure.it;

import dev.watchkeeper.test.boot.AutoConfigureRealKubeApi;
import dev.watchkeeper.test.controlplane.KubeControlPlane;
import dev.watchkeeper.test.controlplane.TestNamespace;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * {@link TestApiServerContract} on the real control plane of {@code @AutoConfigureRealKubeApi},
 * in a namespace of its own.
 */
@AutoConfigureRealKubeApi
class TestApiServerOnControlPlaneIntegrationTests extends TestApiServerContract {

    @Autowired
    KubeControlPlane plane;

    String namespace;

    @BeforeEach
    void namespace(TestNamespace testNamespace) {
        namespace = testNamespace.name();
    }

    @Override
    String serverUrl() {
        return plane.apiClient().getBasePath();
    }

    @Override
    String namespace() {
        return namespace;
    }
}
