package dev.watchkeeper.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.watchkeeper.internal.events.EventRecorder;
import dev.watchkeeper.internal.registry.WatchkeeperRegistry;
import dev.watchkeeper.test.apiserver.InMemoryApiServer;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.EventsV1Api;
import io.kubernetes.client.openapi.models.EventsV1Event;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** The Event recorder bean: who it reports as, the Lease's leadership Events, its counter. */
class EventRecorderAutoConfigurationTests {

    private static final Duration WAIT = Duration.ofSeconds(10);

    private final InMemoryApiServer server = new InMemoryApiServer().start();
    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(WatchkeeperAutoConfiguration.class,
                    WatchkeeperMetricsAutoConfiguration.class, MetricsAutoConfiguration.class))
            .withBean(ApiClient.class, server::apiClient)
            .withBean(SimpleMeterRegistry.class);

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void leadershipIsAnEventOnTheLeaseReportedByTheApplicationFromTheElectionIdentityAndCounted() {
        runner.withPropertyValues("spring.application.name=shop", "watchkeeper.leader-election.enabled=true",
                "watchkeeper.leader-election.identity=replica-9").run(context -> {
                    assertThat(context).hasSingleBean(EventRecorder.class);
                    await().atMost(WAIT).until(() -> !leaseEvents().isEmpty());
                    assertThat(leaseEvents()).singleElement().satisfies(event -> {
                        assertThat(event.getNote()).isEqualTo("replica-9 became leader");
                        assertThat(event.getReason()).isEqualTo("LeaderElection");
                        assertThat(event.getReportingController()).isEqualTo("shop/leader-election");
                        assertThat(event.getReportingInstance()).isEqualTo("replica-9");
                    });
                    MeterRegistry meters = context.getBean(MeterRegistry.class);
                    await().atMost(WAIT).until(() -> meters.get("watchkeeper.events").tag("outcome", "written")
                            .functionCounter().count() == 1);
                    assertThat(meters.get("watchkeeper.events").functionCounters()).hasSize(5);

                    context.getBean(WatchkeeperRegistry.class).stop(); // releases the Lease, then closes the recorder
                    assertThat(leaseEvents()).extracting(EventsV1Event::getNote)
                            .containsExactlyInAnyOrder("replica-9 became leader", "replica-9 stopped leading");
                });
    }

    private List<EventsV1Event> leaseEvents() throws Exception {
        return new EventsV1Api(server.apiClient()).listNamespacedEvent("default").execute().getItems().stream()
                .filter(event -> "shop-leader".equals(event.getRegarding().getName())).toList();
    }
}
