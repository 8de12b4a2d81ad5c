package dev.watchkeeper.test.conformance;

import dev.watchkeeper.test.controlplane.KubeControlPlane;
import dev.watchkeeper.test.controlplane.RealKubeApi;
import dev.watchkeeper.test.controlplane.TestNamespace;
import org.junit.jupiter.api.BeforeAll;

/** The conformance scenarios against the real control plane (kube-apiserver, etcd, garbage collector). */
@RealKubeApi
class ControlPlaneConformanceTest extends ConformanceScenarios {

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
