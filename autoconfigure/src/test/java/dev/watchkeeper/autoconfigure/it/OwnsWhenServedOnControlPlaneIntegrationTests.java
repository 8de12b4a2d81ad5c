package dev.watchkeeper.autoconfigure.it;

import dev.watchkeeper.test.boot.AutoConfigureRealKubeApi;
import dev.watchkeeper.test.controlplane.TestNamespace;
import org.junit.jupiter.api.BeforeEach;

/** {@link OwnsWhenServedContract} on the real control plane, in a namespace of its own. */
@AutoConfigureRealKubeApi
class OwnsWhenServedOnControlPlaneIntegrationTests extends OwnsWhenServedContract {

    String namespace;

    @BeforeEach
    void namespace(TestNamespace testNamespace) {
        namespace = testNamespace.name();
    }

    @Override
    String namespace() {
        return namespace;
    }
}
