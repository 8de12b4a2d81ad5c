package dev.watchkeeper.test.conformance;

import dev.watchkeeper.test.controlplane.KubeControlPlane;
import dev.watchkeeper.test.controlplane.RealKubeApi;
import dev.watchkeeper.test.controlplane.TestNamespace;
import org.junit.jupiter.api.BeforeAll;

/** The read-your-own-writes scenarios against the real control plane. */
@RealKubeApi
class ControlPlaneReadYourWritesTest extends ReadYourWritesScenarios {

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
