package dev.watchkeeper.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The packaged jar in Spring AOT mode with the default profile: its embedded API server and the demo timeline's first
 * step (the CRD and two generators, one of two replicas and one of one, appear a second after start-up), reconciled
 * into three ConfigMaps by the leader (the jar is processed with leader election on), and a watcher declared in
 * properties only when the jar runs (its beans, through which the registry makes it, registered at start-up).
 * Tagged {@code aot}: it runs in the {@code integration-test} phase, once the jar exists (sample-app/pom.xml).
 */
@Tag("aot")
class SampleAotEmbeddedTest {

    @Test
    void theEmbeddedModeReconcilesTheDemoGeneratorsAndRunsAWatcherDeclaredAtRunTime() throws Exception {
        try (SampleProcess sample = SampleProcess.start(SampleProcess.AOT_JAR, List.of("--sample.demo.install-at=1s",
                "--sample.demo.edit-at=1h", "--sample.demo.outage-at=1h", "--sample.demo.short-outage-at=1h",
                // a watcher the build did not know of: the registrar registers its beans when the jar starts
                "--watchkeeper.watchers.secrets.resource=v1/secrets"),
                Map.of(), Duration.ofSeconds(60))) {
            await().atMost(Duration.ofSeconds(30)).until(() -> sample.body("/actuator/watchkeeper/configmaps@all")
                    .contains("\"objects\":3"));
            assertThat(sample.body("/actuator/watchkeeper/configmap-generator")).contains("\"ready\":true");
            assertThat(sample.body("/actuator/watchkeeper/secrets")).contains("\"phase\":\"WATCHING\"");
            assertThat(sample.body("/actuator/health")).contains("\"role\":\"leader\"");
            assertThat(sample.log()).contains("Embedded Kubernetes API server at").doesNotContain("ERROR");
        }
    }
}
