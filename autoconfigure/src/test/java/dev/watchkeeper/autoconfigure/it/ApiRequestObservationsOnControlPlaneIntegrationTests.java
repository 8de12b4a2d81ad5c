package dev.watchkeeper.autoconfigure.it;

import dev.watchkeeper.autoconfigure.ApiClientCustomizer;
import dev.watchkeeper.autoconfigure.WatchkeeperMetricsAutoConfiguration;
import dev.watchkeeper.test.controlplane.KubeControlPlane;
import dev.watchkeeper.test.controlplane.RealKubeApi;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * The real API server answers with its priority-and-fairness classification, which the auto-configured request
 * observation carries as tags: the UIDs of a FlowSchema and a PriorityLevelConfiguration, not {@code none}.
 */
@RealKubeApi
class ApiRequestObservationsOnControlPlaneIntegrationTests {

    @Test
    void aRequestIsTaggedWithTheFlowSchemaAndPriorityLevelThatClassifiedIt() {
        TestObservationRegistry observations = TestObservationRegistry.create();
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(WatchkeeperMetricsAutoConfiguration.class))
                .withBean(ObservationRegistry.class, () -> observations)
                .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
                .run(context -> {
                    ApiClient client = KubeControlPlane.shared().apiClient();
                    context.getBeanProvider(ApiClientCustomizer.class).orderedStream()
                            .forEach(customizer -> customizer.customize(client));

                    new CoreV1Api(client).listNamespacedConfigMap("default").execute();

                    TestObservationRegistryAssert.assertThat(observations)
                            .hasObservationWithNameEqualTo("watchkeeper.api.requests").that()
                            .hasLowCardinalityKeyValue("uri", "/api/v1/namespaces/{namespace}/configmaps")
                            .hasLowCardinalityKeyValue("status", "200")
                            .satisfies(request -> org.assertj.core.api.Assertions.assertThat(
                                    request.getLowCardinalityKeyValue("apf.flow-schema").getValue())
                                    .matches("[0-9a-f-]{36}"))
                            .satisfies(request -> org.assertj.core.api.Assertions.assertThat(
                                    request.getLowCardinalityKeyValue("apf.priority-level").getValue())
                                    .matches("[0-9a-f-]{36}"));
                });
    }
}
