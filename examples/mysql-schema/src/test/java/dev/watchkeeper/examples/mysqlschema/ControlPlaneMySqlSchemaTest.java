package dev.watchkeeper.examples.mysqlschema;

import dev.watchkeeper.test.boot.AutoConfigureRealKubeApi;
import dev.watchkeeper.test.controlplane.TestNamespace;
import org.junit.jupiter.api.BeforeEach;

/** {@link MySqlSchemaScenarios} on the real control plane. */
@AutoConfigureRealKubeApi
class ControlPlaneMySqlSchemaTest extends MySqlSchemaScenarios {

    private String namespace;

    @BeforeEach
    void namespace(TestNamespace testNamespace) {
        namespace = testNamespace.name();
    }

    @Override
    String namespace() {
        return namespace;
    }
}
