package dev.watchkeeper.test.conformance;

import dev.watchkeeper.test.controlplane.KubeControlPlane;
import dev.watchkeeper.test.controlplane.RealKubeApi;
import dev.watchkeeper.test.controlplane.TestNamespace;
import org.junit.jupiter.api.BeforeAll;

/**
 * The sharded watcher scenarios against the real control plane: the one started with the ShardedListAndWatch gate
 * on, and the shared one, which has it off.
 */
@RealKubeApi
class ControlPlaneShardedWatcherTest extends ShardedWatcherScenarios {

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
