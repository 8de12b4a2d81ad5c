package dev.watchkeeper.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.watchkeeper.annotation.Reconciler;
import dev.watchkeeper.annotation.WatchListener;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
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

    @Test
    void aReconcilerMethodOfTheWrongSignatureIsReportedWithWhatIsAcceptedAndNoStackTrace(CapturedOutput output) {
        assertThatThrownBy(() -> run(App.class, WrongReconciler.class)).isNotNull();
        assertThat(report(output)).contains("Watchkeeper cannot use this @Reconciler method:",
                "Bean: startUpFailureReportTests.WrongReconciler",
                "Method: WrongReconciler.reconcile(String)",
                "Problem: its first parameter must be the primary resource, a KubernetesObject such as V1ConfigMap,"
                        + " but is java.lang.String",
                "A @Reconciler method takes the primary object").doesNotContain("\tat ", "Exception");
    }

    @Test
    void aFinalizerWithoutCleanupIsReported(CapturedOutput output) {
        assertThatThrownBy(() -> run(App.class, NoCleanup.class)).isNotNull();
        assertThat(report(output)).contains("Watchkeeper cannot use this @Reconciler method:",
                "Method: NoCleanup.reconcile(V1ConfigMap)",
                "Problem: it declares the finalizer example.com/cleanup but the bean has no @Cleanup method")
                .doesNotContain("\tat ");
    }

    @Test
    void aWatchListenerOfTheWrongSignatureIsReported(CapturedOutput output) {
        assertThatThrownBy(() -> run(App.class, WrongListener.class)).isNotNull();
        assertThat(report(output)).contains("Watchkeeper cannot use this @WatchListener method:",
                "Method: WrongListener.on(String, String)",
                "Problem: it must take one parameter",
                "A @WatchListener method names a watcher").doesNotContain("\tat ");
    }

    /** Boot's report: from its banner on. */
    private static String report(CapturedOutput output) {
        String all = output.toString();
        int start = all.indexOf("APPLICATION FAILED TO START");
        assertThat(start).as("Boot's report in:\n" + all).isNotNegative();
        return all.substring(start);
    }

    private static void run(String... args) {
        run(new Class<?>[] {App.class}, args);
    }

    private static void run(Class<?> app, Class<?> bean) {
        run(new Class<?>[] {app, bean});
    }

    private static void run(Class<?>[] sources, String... args) {
        SpringApplication application = new SpringApplication(sources);
        application.setWebApplicationType(WebApplicationType.NONE);
        application.run(args).close();
    }

    static class WrongReconciler {

        @Reconciler(namespace = "default")
        void reconcile(String notAnObject) {
        }
    }

    static class NoCleanup {

        @Reconciler(namespace = "default", finalizer = "example.com/cleanup")
        void reconcile(V1ConfigMap configMap) {
        }
    }

    static class WrongListener {

        @WatchListener("configmaps")
        void on(String one, String two) {
        }
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
