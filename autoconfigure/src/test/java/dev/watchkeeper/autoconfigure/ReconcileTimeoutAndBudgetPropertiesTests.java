package dev.watchkeeper.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.watchkeeper.annotation.Reconciler;
import dev.watchkeeper.internal.registry.WatchkeeperRegistry;
import dev.watchkeeper.internal.reconcile.RateLimit;
import dev.watchkeeper.internal.reconcile.ReconcilerSettings;
import dev.watchkeeper.internal.registry.WatchkeeperSettings;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** {@code watchkeeper.reconcile.timeout} and {@code write-budget}, layered as the other per-reconciler settings. */
class ReconcileTimeoutAndBudgetPropertiesTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(WatchkeeperAutoConfiguration.class))
            .withBean(ApiClient.class, () -> new ApiClient().setBasePath("http://127.0.0.1:1"))
            .withUserConfiguration(Declared.class);

    @Test
    void noTimeoutAndNoWriteBudgetByDefault() {
        runner.run(context -> {
            ReconcilerSettings settings = context.getBean(WatchkeeperSettings.class).reconciler("other", 1, null);
            assertThat(settings.timeout()).isZero();
            assertThat(settings.writeBudget()).isNull();
            assertThat(settingsOf(context.getBean(WatchkeeperRegistry.class), "plain").timeout()).isZero();
        });
    }

    @Test
    void theTimeoutIsTheReconcilersPropertyElseItsAnnotationElseTheGlobalProperty() {
        runner.withPropertyValues("watchkeeper.reconcile.timeout=5m").run(context -> {
            WatchkeeperRegistry registry = context.getBean(WatchkeeperRegistry.class);
            assertThat(settingsOf(registry, "plain").timeout()).isEqualTo(Duration.ofMinutes(5));
            assertThat(settingsOf(registry, "bounded").timeout()).as("the annotation's")
                    .isEqualTo(Duration.ofSeconds(30));
        });
        runner.withPropertyValues("watchkeeper.reconcile.timeout=5m", "watchkeeper.reconcilers.bounded.timeout=0s")
                .run(context -> assertThat(settingsOf(context.getBean(WatchkeeperRegistry.class), "bounded")
                        .timeout()).as("the property turns the annotation's off").isZero());
    }

    @Test
    void theWriteBudgetIsOffByDefaultAndTakesControllerRuntimesNumbersWhenOn() {
        runner.withPropertyValues("watchkeeper.reconcile.write-budget.enabled=true",
                "watchkeeper.reconcilers.bounded.write-budget.qps=2.5").run(context -> {
                    WatchkeeperSettings settings = context.getBean(WatchkeeperSettings.class);
                    assertThat(settings.reconciler("plain", 1, null).writeBudget()).isEqualTo(new RateLimit(20, 30));
                    assertThat(settings.reconciler("bounded", 1, null).writeBudget())
                            .isEqualTo(new RateLimit(2.5, 30));
                });
        runner.withPropertyValues("watchkeeper.reconcilers.bounded.write-budget.enabled=true").run(context -> {
            WatchkeeperSettings settings = context.getBean(WatchkeeperSettings.class);
            assertThat(settings.reconciler("plain", 1, null).writeBudget()).as("only where enabled").isNull();
            assertThat(settings.reconciler("bounded", 1, null).writeBudget()).isEqualTo(new RateLimit(20, 30));
        });
    }

    @Test
    void invalidValuesFailStartUpNamingTheProperty() {
        runner.withPropertyValues("watchkeeper.reconcilers.bounded.timeout=-1s")
                .run(context -> assertThat(context).getFailure().rootCause()
                        .hasMessageContaining("watchkeeper.reconcilers.bounded.timeout")
                        .hasMessageContaining("must not be negative"));
        runner.withPropertyValues("watchkeeper.reconcile.write-budget.burst=0")
                .run(context -> assertThat(context).getFailure().rootCause()
                        .hasMessageContaining("watchkeeper.reconcile.write-budget.burst")
                        .hasMessageContaining("must be at least 1"));
    }

    private static ReconcilerSettings settingsOf(WatchkeeperRegistry registry, String name) {
        return registry.reconciler(name).orElseThrow().settings();
    }

    /** A reconciler without a timeout of its own, and one whose annotation sets 30 s. */
    @Configuration(proxyBeanMethods = false)
    static class Declared {

        @Bean
        Object reconcilers() {
            return new Object() {
                @Reconciler(name = "plain")
                void reconcile(V1ConfigMap configMap) {
                }

                @Reconciler(name = "bounded", timeout = "30s")
                void bounded(V1ConfigMap configMap) {
                }
            };
        }
    }
}
