package dev.watchkeeper.test.conformance;

import dev.watchkeeper.test.controlplane.KubeControlPlane;
import dev.watchkeeper.test.controlplane.RealKubeApi;
import dev.watchkeeper.test.controlplane.TestNamespace;
import org.junit.jupiter.api.BeforeAll;

/** The finalizer release scenarios against the real control plane. */
@RealKubeApi
class ControlPlaneFinalizerReleaseTest extends FinalizerReleaseScenarios {

    private ServerUnderTest server;

    @BeforeAll
    void connect(KubeControlPlane plane, TestNamespace namespace) {
        server = new ControlPlaneServer(plane, namespace);
    }

    @Override
    ServerUnderTest server() {
        return server;
    }
}
