package dev.watchkeeper.examples.webpage;

import dev.watchkeeper.test.boot.AutoConfigureRealKubeApi;
import dev.watchkeeper.test.controlplane.TestNamespace;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.test.context.TestPropertySource;

/** {@link WebPageScenarios} on the real control plane, with the managed flavour. */
@AutoConfigureRealKubeApi
@TestPropertySource(properties = "webpage.reconciler=managed")
class ControlPlaneManagedWebPageTest extends WebPageScenarios {

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
        return false;
    }
}
