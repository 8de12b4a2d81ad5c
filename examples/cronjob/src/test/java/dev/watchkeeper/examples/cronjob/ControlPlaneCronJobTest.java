package dev.watchkeeper.examples.cronjob;

import dev.watchkeeper.test.boot.AutoConfigureRealKubeApi;
import dev.watchkeeper.test.controlplane.TestNamespace;
import org.junit.jupiter.api.BeforeEach;

/** {@link CronJobScenarios} on the real control plane. */
@AutoConfigureRealKubeApi
class ControlPlaneCronJobTest extends CronJobScenarios {

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
    boolean validates() {
        return true;
    }
}
