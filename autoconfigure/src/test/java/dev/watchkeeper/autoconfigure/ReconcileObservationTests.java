package dev.watchkeeper.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.watchkeeper.autoconfigure.metrics.DefaultReconcileObservationConvention;
import dev.watchkeeper.autoconfigure.metrics.ObservationReconcileObserver;
import dev.watchkeeper.autoconfigure.metrics.ReconcileObservationContext;
import dev.watchkeeper.autoconfigure.metrics.ReconcileObservationConvention;
import dev.watchkeeper.internal.reconcile.ReconcileObserver;
import dev.watchkeeper.reconcile.ReconcileResult;
import dev.watchkeeper.store.ObjectKey;
import dev.watchkeeper.test.apiserver.InMemoryApiServer;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.micrometer.common.KeyValues;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * A reconcile's observation and its tags, and the API calls it makes as child observations, on the in-memory
 * server (which sends no priority-and-fairness headers: {@code none}).
 */
class ReconcileObservationTests {

    private final InMemoryApiServer server = new InMemoryApiServer().start();
    private final TestObservationRegistry observations = TestObservationRegistry.create();

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void aReconcilesApiCallsAreChildrenOfItsObservation() throws Exception {
        ApiClient client = observed(server.apiClient());
        CoreV1Api core = new CoreV1Api(client);
        ReconcileObserver observer = new ObservationReconcileObserver(observations, null, reconciler -> "configmaps");

        observer.observe("app-config", new ObjectKey("default", "settings"), () -> {
            core.listNamespacedConfigMap("default").execute();
            core.createNamespacedConfigMap("default",
                    new V1ConfigMap().metadata(new V1ObjectMeta().name("settings-0"))).execute();
            return ReconcileResult.done();
        });

        TestObservationRegistryAssert.assertThat(observations)
                .hasNumberOfObservationsWithNameEqualTo(DefaultReconcileObservationConvention.NAME, 1)
                .hasObservationWithNameEqualTo(DefaultReconcileObservationConvention.NAME).that()
                .hasContextualNameEqualTo("reconcile app-config")
                .hasLowCardinalityKeyValue("reconciler", "app-config")
                .hasLowCardinalityKeyValue("resource", "configmaps")
                .hasLowCardinalityKeyValue("result", "done")
                .hasHighCardinalityKeyValue("namespace", "default")
                .hasHighCardinalityKeyValue("name", "settings")
                .hasBeenStopped();
        TestObservationRegistryAssert.assertThat(observations)
                .hasNumberOfObservationsWithNameEqualTo(ApiRequestObservations.NAME, 2)
                .forAllObservationsWithNameEqualTo(ApiRequestObservations.NAME, request -> request
                        .hasParentObservationContextMatching(ReconcileObservationTests::isReconcile)
                        .hasLowCardinalityKeyValue("uri", "/api/v1/namespaces/{namespace}/configmaps")
                        .hasLowCardinalityKeyValue("apf.flow-schema", "none")
                        .hasLowCardinalityKeyValue("apf.priority-level", "none"));
    }

    @Test
    void aCallOutsideAReconcileHasNoParent() throws Exception {
        new CoreV1Api(observed(server.apiClient())).listConfigMapForAllNamespaces().execute();

        TestObservationRegistryAssert.assertThat(observations)
                .hasObservationWithNameEqualTo(ApiRequestObservations.NAME).that()
                .doesNotHaveParentObservation()
                .hasLowCardinalityKeyValue("uri", "/api/v1/configmaps")
                .hasLowCardinalityKeyValue("method", "GET");
    }

    @Test
    void theResultTagSaysRequeueOrError() throws Exception {
        ReconcileObserver observer = new ObservationReconcileObserver(observations, null, reconciler -> "pods");

        observer.observe("requeuing", new ObjectKey(null, "node-1"),
                () -> ReconcileResult.requeueAfter(Duration.ofSeconds(1)));
        assertThatThrownBy(() -> observer.observe("failing", new ObjectKey("ns", "a"), () -> {
            throw new IllegalStateException("no");
        })).hasMessage("no");

        TestObservationRegistryAssert.assertThat(observations)
                .hasAnObservation(o -> o.hasLowCardinalityKeyValue("reconciler", "requeuing")
                        .hasLowCardinalityKeyValue("result", "requeue")
                        .hasHighCardinalityKeyValue("namespace", "none"))
                .hasAnObservation(o -> o.hasLowCardinalityKeyValue("reconciler", "failing")
                        .hasLowCardinalityKeyValue("result", "error").hasError());
    }

    @Test
    void anApplicationsConventionReplacesTheDefault() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(WatchkeeperMetricsAutoConfiguration.class))
                .withBean(ObservationRegistry.class, () -> observations)
                .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
                .withBean(ReconcileObservationConvention.class, TeamConvention::new)
                .run(context -> {
                    assertThat(context).getBeans(ApiClientCustomizer.class).values()
                            .hasAtLeastOneElementOfType(ApiRequestObservations.class);
                    context.getBean(ReconcileObserver.class).observe("app-config", new ObjectKey("default", "a"),
                            ReconcileResult::done);
                    TestObservationRegistryAssert.assertThat(observations)
                            .hasObservationWithNameEqualTo(DefaultReconcileObservationConvention.NAME).that()
                            .hasLowCardinalityKeyValue("team", "platform")
                            .hasLowCardinalityKeyValue("resource", "unknown");
                });
    }

    @Test
    void pathsBecomeTemplates() {
        assertThat(ApiPaths.template("/api/v1/namespaces/default/configmaps/settings"))
                .isEqualTo("/api/v1/namespaces/{namespace}/configmaps/{name}");
        assertThat(ApiPaths.template("/apis/apps/v1/namespaces/ns/deployments/web/status"))
                .isEqualTo("/apis/apps/v1/namespaces/{namespace}/deployments/{name}/status");
        assertThat(ApiPaths.template("/apis/apps/v1/deployments")).isEqualTo("/apis/apps/v1/deployments");
        assertThat(ApiPaths.template("/api/v1/namespaces")).isEqualTo("/api/v1/namespaces");
        assertThat(ApiPaths.template("/api/v1/nodes/node-1")).isEqualTo("/api/v1/nodes/{name}");
        assertThat(ApiPaths.template("/apis/coordination.k8s.io/v1/namespaces/ns/leases"))
                .isEqualTo("/apis/coordination.k8s.io/v1/namespaces/{namespace}/leases");
        assertThat(ApiPaths.template("/version")).isEqualTo("/version");
    }

    private static boolean isReconcile(Object parent) {
        return ((Observation.ContextView) parent).getName().equals(DefaultReconcileObservationConvention.NAME);
    }

    private ApiClient observed(ApiClient client) {
        new ApiRequestObservations(observations).customize(client);
        return client;
    }

    static class TeamConvention extends DefaultReconcileObservationConvention {

        @Override
        public KeyValues getLowCardinalityKeyValues(ReconcileObservationContext context) {
            return super.getLowCardinalityKeyValues(context).and("team", "platform");
        }
    }
}
