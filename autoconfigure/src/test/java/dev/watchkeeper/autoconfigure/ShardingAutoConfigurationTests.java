package dev.watchkeeper.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.watchkeeper.annotation.Reconciler;
import dev.watchkeeper.autoconfigure.endpoint.WatchkeeperEndpoint;
import dev.watchkeeper.internal.shard.ShardCoordinator;
import dev.watchkeeper.registry.WatchkeeperState;
import dev.watchkeeper.internal.shard.ShardingSettings;
import dev.watchkeeper.test.apiserver.InMemoryApiServer;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Secret;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * {@code watchkeeper.sharding.*} and {@code watchkeeper.reconcilers.<name>.sharding.enabled}: off by default, defaults,
 * binding, validation, per reconciler, exclusivity, endpoint, metrics.
 */
@ExtendWith(OutputCaptureExtension.class)
class ShardingAutoConfigurationTests {

    private final InMemoryApiServer server = new InMemoryApiServer().start();
    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(WatchkeeperAutoConfiguration.class,
                    WatchkeeperShardingAutoConfiguration.class, WatchkeeperEndpointAutoConfiguration.class,
                    WatchkeeperMetricsAutoConfiguration.class, MetricsAutoConfiguration.class,
                    EndpointAutoConfiguration.class))
            .withPropertyValues("management.endpoints.web.exposure.include=*")
            .withBean(ApiClient.class, server::apiClient)
            .withBean(SimpleMeterRegistry.class);

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void isOffByDefault() {
        runner.run(context -> {
            assertThat(context).doesNotHaveBean(ShardCoordinator.class);
            assertThat(context.getBean(WatchkeeperEndpoint.class).watchkeeper().sharding()).isNull();
        });
    }

    @Test
    void unsetValuesDefaultAsLeaderElectionDerivesThem() {
        runner.withPropertyValues("watchkeeper.sharding.enabled=true", "spring.application.name=orders")
                .run(context -> {
                    ShardingSettings settings = context.getBean(ShardCoordinator.class).settings();
                    assertThat(settings.group()).isEqualTo("orders");
                    assertThat(settings.namespace()).isEqualTo("default"); // no service account mount here
                    assertThat(settings.identity()).isNotBlank();
                    assertThat(settings.memberLeaseName()).startsWith("orders-");
                    assertThat(settings.leaseDuration()).isEqualTo(Duration.ofSeconds(15));
                    assertThat(settings.renewDeadline()).isEqualTo(Duration.ofSeconds(10));
                    assertThat(settings.retryPeriod()).isEqualTo(Duration.ofSeconds(2));
                });
    }

    @Test
    void propertiesBindAndShowInTheEndpointAndMetrics() {
        runner.withPropertyValues("watchkeeper.sharding.enabled=true", "watchkeeper.sharding.group=shop",
                "watchkeeper.sharding.namespace=ops", "watchkeeper.sharding.identity=Pod_A",
                "watchkeeper.sharding.lease-duration=30s", "watchkeeper.sharding.renew-deadline=20s",
                "watchkeeper.sharding.retry-period=4s").run(context -> {
                    ShardingSettings settings = context.getBean(ShardCoordinator.class).settings();
                    assertThat(settings).isEqualTo(new ShardingSettings("shop", "ops", "Pod_A",
                            Duration.ofSeconds(30), Duration.ofSeconds(20), Duration.ofSeconds(4)));
                    assertThat(settings.memberLeaseName()).isEqualTo("shop-pod-a");
                    var sharding = context.getBean(WatchkeeperEndpoint.class).watchkeeper().sharding();
                    assertThat(sharding.identity()).isEqualTo("Pod_A");
                    assertThat(sharding.group()).isEqualTo("shop");
                    assertThat(sharding.phase()).isEqualTo("joining");
                    assertThat(sharding.active()).isEqualTo("[]");
                    MeterRegistry meters = context.getBean(MeterRegistry.class);
                    assertThat(meters.get("watchkeeper.sharding.owned.slots").tag("group", "shop").gauge().value())
                            .isZero();
                    assertThat(meters.get("watchkeeper.sharding.handovers").functionCounter().count()).isZero();
                    assertThat(meters.get("watchkeeper.sharding.handover.duration").timeGauge()).isNotNull();
                });
    }

    @Test
    void aTimingThatBreaksTheRulesNamesTheProperty() {
        runner.withPropertyValues("watchkeeper.sharding.enabled=true", "watchkeeper.sharding.renew-deadline=20s")
                .run(context -> assertThat(context).hasFailed().getFailure().rootCause()
                        .isInstanceOf(WatchkeeperPropertyException.class)
                        .hasMessageContaining("watchkeeper.sharding.renew-deadline")
                        .hasMessageContaining("must be shorter than the lease-duration (15s)"));
    }

    @Test
    void shardingAndLeaderElectionTogetherStopStartUpSayingToChooseOne(CapturedOutput output) {
        SpringApplication application = new SpringApplication(App.class);
        application.setWebApplicationType(WebApplicationType.NONE);

        assertThatThrownBy(() -> application.run("--watchkeeper.sharding.enabled=true",
                "--watchkeeper.leader-election.enabled=true").close()).isNotNull();

        assertThat(output).contains("APPLICATION FAILED TO START", "Property: watchkeeper.sharding.enabled",
                "Value: \"true\"",
                "Reason: cannot be combined with watchkeeper.leader-election.enabled=true; choose one");
    }

    @Test
    void oneReconcilersOwnPropertyShardsItAloneAndItsWatchersAreNoBeans() {
        runner.withBean("generators", TwoReconcilers.class)
                .withPropertyValues("watchkeeper.reconcilers.big.sharding.enabled=true").run(context -> {
                    assertThat(context).hasSingleBean(ShardCoordinator.class);
                    WatchkeeperState state = context.getBean(WatchkeeperState.class);
                    assertThat(state.reconcilerSnapshot("big").orElseThrow().shard()).isNotNull();
                    assertThat(state.reconcilerSnapshot("small").orElseThrow().shard()).isNull();
                    assertThat(context).hasBean(WatcherBeanRegistrar.WATCHER_BEAN_PREFIX + "secrets@all")
                            .doesNotHaveBean(WatcherBeanRegistrar.WATCHER_BEAN_PREFIX + "configmaps@all");
                });
    }

    @Test
    void aReconcilerMayOptOutOfShardingEnabledForAll() {
        runner.withBean("generators", TwoReconcilers.class).withPropertyValues("watchkeeper.sharding.enabled=true",
                "watchkeeper.reconcilers.small.sharding.enabled=false").run(context -> {
                    WatchkeeperState state = context.getBean(WatchkeeperState.class);
                    assertThat(state.reconcilerSnapshot("big").orElseThrow().shard()).isNotNull();
                    assertThat(state.reconcilerSnapshot("small").orElseThrow().shard()).isNull();
                    assertThat(context).hasBean(WatcherBeanRegistrar.WATCHER_BEAN_PREFIX + "secrets@all");
                });
    }

    @Test
    void noReconcilerShardedMeansNoCoordinator() {
        runner.withBean("generators", TwoReconcilers.class)
                .withPropertyValues("watchkeeper.reconcilers.big.sharding.enabled=false")
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(ShardCoordinator.class));
    }

    @Test
    void leaderElectionWithOneShardedReconcilerNamesItsProperty() {
        runner.withBean("generators", TwoReconcilers.class).withPropertyValues(
                "watchkeeper.leader-election.enabled=true", "watchkeeper.reconcilers.big.sharding.enabled=true")
                .run(context -> assertThat(context).hasFailed().getFailure().rootCause()
                        .isInstanceOf(WatchkeeperPropertyException.class)
                        .hasMessageContaining("watchkeeper.reconcilers.big.sharding.enabled")
                        .hasMessageContaining("cannot be combined with watchkeeper.leader-election.enabled=true"));
    }

    /** Two reconcilers, a bean of its own class so the watcher registrar sees the annotations before beans exist. */
    static class TwoReconcilers {
        @Reconciler(name = "big")
        void reconcileConfigMap(V1ConfigMap configMap) {
        }

        @Reconciler(name = "small")
        void reconcileSecret(V1Secret secret) {
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration({WatchkeeperAutoConfiguration.class, WatchkeeperShardingAutoConfiguration.class})
    static class App {

        @Bean
        ApiClient apiClient() {
            return new ApiClient().setBasePath("http://127.0.0.1:1");
        }
    }
}
