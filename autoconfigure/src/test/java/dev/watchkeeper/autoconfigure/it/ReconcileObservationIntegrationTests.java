package dev.watchkeeper.autoconfigure.it;

import static org.awaitility.Awaitility.await;

import dev.watchkeeper.annotation.Reconciler;
import dev.watchkeeper.test.apiserver.InMemoryApiServer;
import dev.watchkeeper.test.boot.AutoConfigureInMemoryKubeApi;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.micrometer.observation.Observation;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.test.annotation.DirtiesContext;

/**
 * A reconcile on a worker thread of the running application is an observation with its tags, and the API call it
 * makes through the starter's {@code ApiClient} is a child of it.
 */
@SpringBootTest(classes = ReconcileObservationIntegrationTests.App.class)
@AutoConfigureInMemoryKubeApi
@DirtiesContext
class ReconcileObservationIntegrationTests {

    @Autowired
    InMemoryApiServer server;

    @Autowired
    TestObservationRegistry observations;

    @Test
    void aReconcileIsAnObservationAndTheWriteItMakesIsItsChild() {
        server.create(new V1ConfigMap().metadata(new V1ObjectMeta().namespace("default").name("settings"))
                .data(Map.of("level", "info")));

        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> TestObservationRegistryAssert
                .assertThat(observations)
                .hasAnObservation(reconcile -> reconcile.hasNameEqualTo("watchkeeper.reconcile")
                        .hasContextualNameEqualTo("reconcile copier")
                        .hasLowCardinalityKeyValue("reconciler", "copier")
                        .hasLowCardinalityKeyValue("resource", "v1/configmaps")
                        .hasLowCardinalityKeyValue("result", "done")
                        .hasHighCardinalityKeyValue("namespace", "default")
                        .hasHighCardinalityKeyValue("name", "settings"))
                .hasAnObservation(write -> write.hasNameEqualTo("watchkeeper.api.requests")
                        .hasLowCardinalityKeyValue("method", "POST")
                        .hasLowCardinalityKeyValue("uri", "/api/v1/namespaces/{namespace}/configmaps")
                        .hasLowCardinalityKeyValue("status", "201")
                        .hasParentObservationContextMatching(ReconcileObservationIntegrationTests::isCopierReconcile)));
    }

    private static boolean isCopierReconcile(Object parent) {
        Observation.ContextView context = (Observation.ContextView) parent;
        return context.getName().equals("watchkeeper.reconcile")
                && "copier".equals(context.getLowCardinalityKeyValue("reconciler").getValue());
    }

    @SpringBootApplication
    static class App {

        @Bean
        TestObservationRegistry observationRegistry() {
            return TestObservationRegistry.create();
        }

        @Bean
        Copier copier(ApiClient client) {
            return new Copier(client);
        }
    }

    /** Copies each ConfigMap once, to {@code <name>-copy}: a write made inside the reconcile. */
    static class Copier {

        private final CoreV1Api api;

        Copier(ApiClient client) {
            this.api = new CoreV1Api(client);
        }

        @Reconciler(name = "copier", namespace = "default")
        void reconcile(V1ConfigMap configMap) throws ApiException {
            String name = configMap.getMetadata().getName();
            if (!name.endsWith("-copy")) {
                api.createNamespacedConfigMap("default", new V1ConfigMap()
                        .metadata(new V1ObjectMeta().name(name + "-copy")).data(configMap.getData())).execute();
            }
        }
    }
}
