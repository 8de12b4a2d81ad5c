package dev.watchkeeper.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.watchkeeper.autoconfigure.endpoint.LeaderElectionDescriptor;
import dev.watchkeeper.autoconfigure.endpoint.WatchkeeperEndpoint;
import dev.watchkeeper.autoconfigure.health.WatchkeeperHealthIndicator;
import dev.watchkeeper.internal.leader.LeaderElectionSettings;
import dev.watchkeeper.internal.leader.LeaderElector;
import dev.watchkeeper.test.apiserver.InMemoryApiServer;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.models.V1Lease;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationListener;
import org.springframework.core.NestedExceptionUtils;

/** {@code watchkeeper.leader-election.*}: defaults, validation, and what the endpoint, health, metrics and events show. */
class LeaderElectionAutoConfigurationTests {

    private static final Duration WAIT = Duration.ofSeconds(10);

    private final InMemoryApiServer server = new InMemoryApiServer().start();
    private final List<LeadershipEvent> events = new CopyOnWriteArrayList<>();
    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(WatchkeeperAutoConfiguration.class,
                    WatchkeeperEndpointAutoConfiguration.class, WatchkeeperHealthAutoConfiguration.class,
                    WatchkeeperMetricsAutoConfiguration.class, MetricsAutoConfiguration.class,
                    EndpointAutoConfiguration.class))
            .withPropertyValues("management.endpoints.web.exposure.include=*")
            .withBean(ApiClient.class, server::apiClient)
            .withBean(SimpleMeterRegistry.class)
            .withBean("recorder", ApplicationListener.class,
                    () -> (ApplicationListener<LeadershipEvent>) events::add);

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void isOffByDefault() {
        runner.run(context -> {
            assertThat(context).doesNotHaveBean(LeaderElector.class);
            assertThat(context.getBean(WatchkeeperEndpoint.class).watchkeeper().leaderElection().enabled()).isFalse();
        });
    }

    @Test
    void takesClientGosTimingAndNamesTheLeaseAfterTheApplication() {
        runner.withPropertyValues("watchkeeper.leader-election.enabled=true", "spring.application.name=shop")
                .run(context -> {
                    LeaderElectionSettings settings = context.getBean(LeaderElector.class).settings();
                    assertThat(settings.leaseName()).isEqualTo("shop-leader");
                    assertThat(settings.leaseNamespace()).isEqualTo("default");
                    assertThat(settings.identity()).matches(".+-[0-9a-f]{8}");
                    assertThat(settings.leaseDuration()).isEqualTo(Duration.ofSeconds(15));
                    assertThat(settings.renewDeadline()).isEqualTo(Duration.ofSeconds(10));
                    assertThat(settings.retryPeriod()).isEqualTo(Duration.ofSeconds(2));
                    assertThat(settings.releaseOnCancel()).isTrue();
                });
    }

    @Test
    void theLeaderShowsInTheEndpointHealthAndGaugeAndIsAnnouncedByEvents() throws Exception {
        runner.withPropertyValues("watchkeeper.leader-election.enabled=true",
                "watchkeeper.leader-election.identity=pod-a", "watchkeeper.leader-election.lease-name=app-leader")
                .run(context -> {
                    LeaderElector elector = context.getBean(LeaderElector.class);
                    await().atMost(WAIT).until(elector::isLeader);
                    await().atMost(WAIT).until(() -> !events.isEmpty());

                    LeaderElectionDescriptor endpoint = context.getBean(WatchkeeperEndpoint.class).watchkeeper()
                            .leaderElection();
                    assertThat(endpoint.enabled()).isTrue();
                    assertThat(endpoint.role()).isEqualTo("leader");
                    assertThat(endpoint.identity()).isEqualTo("pod-a");
                    assertThat(endpoint.holder()).isEqualTo("pod-a");
                    assertThat(endpoint.leaseName()).isEqualTo("app-leader");
                    assertThat(endpoint.acquiredAt()).isNotNull();
                    assertThat(endpoint.lastRenewAt()).isNotNull();
                    assertThat(endpoint.transitions()).isZero();
                    assertThat(context.getBean(WatchkeeperHealthIndicator.class).health().getDetails())
                            .containsEntry("leaderElection", Map.of("role", "leader", "identity", "pod-a",
                                    "lease", "default/app-leader", "holder", "pod-a"));
                    assertThat(context.getBean(MeterRegistry.class).get("watchkeeper.leader")
                            .tag("lease", "default/app-leader").gauge().value()).isEqualTo(1.0);
                    assertThat(events).singleElement().isInstanceOf(LeadershipEvent.Acquired.class);
                });
        // closed: the reconcilers stopped, then the Lease was released
        assertThat(events).hasSize(2).last().isInstanceOf(LeadershipEvent.Lost.class);
        V1Lease lease = new CoordinationV1Api(server.apiClient()).readNamespacedLease("app-leader", "default")
                .execute();
        assertThat(lease.getSpec().getHolderIdentity()).isNull();
    }

    @Test
    void aTimingThatCannotWorkFailsStartUpNamingTheProperties() {
        runner.withPropertyValues("watchkeeper.leader-election.enabled=true",
                "watchkeeper.leader-election.renew-deadline=20s").run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                            .isInstanceOf(WatchkeeperPropertyException.class)
                            .hasMessage("Invalid value 'PT20S' for property watchkeeper.leader-election.renew-deadline:"
                                    + " must be shorter than the lease-duration (15s)");
                });
        runner.withPropertyValues("watchkeeper.leader-election.enabled=true",
                "watchkeeper.leader-election.retry-period=9s").run(context ->
                assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                        .hasMessageContaining("watchkeeper.leader-election.retry-period")
                        .hasMessageContaining("renew-deadline (10s) divided by 1.2"));
    }

    @Test
    void theNewKeysAreKnownAndAMisspeltOneIsNamed() {
        assertThat(PropertyKeys.KNOWN).contains(List.of("watchkeeper", "leader-election", "release-on-cancel"),
                List.of("watchkeeper", "leader-election", "lease-namespace"));
        assertThat(PropertyKeys.nearest(org.springframework.boot.context.properties.source.ConfigurationPropertyName
                .of("watchkeeper.leader-election.lease-nme"))).isEqualTo("watchkeeper.leader-election.lease-name");
    }
}
