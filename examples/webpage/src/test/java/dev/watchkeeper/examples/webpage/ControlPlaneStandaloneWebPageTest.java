package dev.watchkeeper.examples.webpage;

import dev.watchkeeper.test.boot.AutoConfigureRealKubeApi;
import dev.watchkeeper.test.controlplane.TestNamespace;
import org.junit.jupiter.api.BeforeEach;

/** {@link WebPageScenarios} on the real control plane, with the standalone flavour. */
@AutoConfigureRealKubeApi
class ControlPlaneStandaloneWebPageTest extends WebPageScenarios {

    private String namespace;

    @BeforeEach
    void namespace(TestNamespace testNamespace) {
        namespace = testNamespace.name();
    }

    @Override
    String namespace() {
        return namespace;
    }

    @Override
    boolean validatesHtml() {
        return true;
    }
}
