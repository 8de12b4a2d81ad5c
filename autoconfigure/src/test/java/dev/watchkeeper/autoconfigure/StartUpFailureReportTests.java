package dev.watchkeeper.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubernetes.client.openapi.ApiClient;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** What a user sees when Watchkeeper stops start-up: Boot's report, not a stack trace. */
@ExtendWith(OutputCaptureExtension.class)
class StartUpFailureReportTests {

    @Test
    void anInvalidValueIsReportedAsWrittenWithWhereAndWhatIsAllowed(CapturedOutput output) {
        assertThatThrownBy(() -> run("--watchkeeper.backoff.initial-interval=-1s")).isNotNull();
        assertThat(output).contains("APPLICATION FAILED TO START",
                "Property: watchkeeper.backoff.initial-interval",
                "Value: \"-1s\"",
                "Origin: \"watchkeeper.backoff.initial-interval\" from property source \"commandLineArgs\"",
                "Reason: must be positive",
                "Correct watchkeeper.backoff.initial-interval: must be positive.");
        assertThat(output.toString().substring(output.toString().indexOf("APPLICATION FAILED TO START")))
                .as("the report shows the value as written, not as bound").doesNotContain("PT-1S");
    }

    @Test
    void aMisspeltKeyIsReportedWithTheNearestKnownKey(CapturedOutput output) {
        assertThatThrownBy(() -> run("--watchkeeper.backof.max-interval=1m")).isNotNull();
        assertThat(output).contains("APPLICATION FAILED TO START",
                "Property: watchkeeper.backof.max-interval",
                "Value: \"1m\"",
                "Reason: Watchkeeper has no such property",
                "Did you mean watchkeeper.backoff.max-interval?");
    }

    @Test
    void anOverrideOfNoWatcherIsReportedWithTheKnownNames(CapturedOutput output) {
        assertThatThrownBy(() -> run("--watchkeeper.watchers.nope.watch.page-size=10")).isNotNull();
        assertThat(output).contains("APPLICATION FAILED TO START",
                "Property: watchkeeper.watchers.nope.watch.page-size",
                "Value: \"10\"",
                "Reason: it overrides the watcher 'nope', but no watcher has that name",
                "No watcher is declared: declare one named 'nope', or remove the override.");
    }

    @Test
    void noKubernetesConfigurationIsExplainedWithTheWaysToGiveOne() {
        FailureAnalysis analysis = new NoKubernetesConfigFailureAnalyzer().analyze(new IllegalStateException(
                new NoKubernetesConfigException(
                        List.of("$KUBECONFIG (not set)", "/home/me/.kube/config (does not exist)"))));
        assertThat(analysis.getDescription()).contains("found no Kubernetes API server",
                "    - $KUBECONFIG (not set)\n    - /home/me/.kube/config (does not exist)", "http://localhost:8080");
        assertThat(analysis.getAction()).contains("KUBECONFIG", "~/.kube/config", "service account",
                "ApiClient bean");
    }

    private static void run(String... args) {
        SpringApplication application = new SpringApplication(App.class);
        application.setWebApplicationType(WebApplicationType.NONE);
        application.run(args).close();
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration(WatchkeeperAutoConfiguration.class)
    static class App {

        @Bean
        ApiClient apiClient() {
            return new ApiClient().setBasePath("http://127.0.0.1:1");
        }
    }
}
