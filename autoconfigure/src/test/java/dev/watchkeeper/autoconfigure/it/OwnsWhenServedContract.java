package dev.watchkeeper.autoconfigure.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.gson.JsonObject;
import dev.watchkeeper.annotation.KubernetesResource;
import dev.watchkeeper.annotation.Reconciler;
import dev.watchkeeper.crd.CustomResourceDefinitions;
import dev.watchkeeper.reconcile.Dependent;
import dev.watchkeeper.reconcile.Dependents;
import dev.watchkeeper.reconcile.DependentsResult;
import dev.watchkeeper.reconcile.DependentsResult.Phase;
import dev.watchkeeper.reconcile.ReconcileContext;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.test.annotation.DirtiesContext;

/**
 * {@code @Reconciler(ownsWhenServed = ...)} in a running application, over HTTP, on both servers (the subclasses): the
 * application is ready and healthy while the server does not serve the kind, its watcher's health says it awaits
 * serving, the reconciler makes its other dependents, and once the CRD is installed every primary gets its child.
 */
@SpringBootTest(classes = OwnsWhenServedContract.App.class, webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = {
                "management.endpoints.web.exposure.include=health",
                "management.endpoint.health.show-details=always",
                "management.endpoint.health.probes.enabled=true"})
@DirtiesContext
abstract class OwnsWhenServedContract {

    static final String LABEL = "watchkeeper.dev/crated";
    static final String WATCHER = "crates.served.watchkeeper.dev@all";

    @LocalServerPort
    int port;

    @Autowired
    ApiClient client;

    @Autowired
    Crates crates;

    abstract String namespace();

    @Test
    void theApplicationIsReadyWhileTheKindIsNotServedAndEveryPrimaryGetsItsChildOnceItIs() throws Exception {
        Http http = new Http(port);
        CoreV1Api core = new CoreV1Api(client);
        await().atMost(Duration.ofSeconds(30)).until(() -> http.get("/actuator/health/readiness").status() == 200);
        assertThat(http.get("/actuator/health").status()).isEqualTo(200);
        assertThat(crateWatcherHealth(http).get("awaitsServing").getAsBoolean()).isTrue();

        core.createNamespacedConfigMap(namespace(), new V1ConfigMap().metadata(new V1ObjectMeta().name("c1")
                .namespace(namespace()).putLabelsItem(LABEL, "yes"))).execute();
        await().atMost(Duration.ofSeconds(30)).until(() -> crates.last != null
                && crates.last.state("settings").orElseThrow().phase() == Phase.READY);
        assertThat(crates.last.state("crate").orElseThrow().reason()).isEqualTo("the server does not serve Crate yet");
        core.readNamespacedSecret("c1-settings", namespace()).execute();

        DynamicKubernetesApi definitions = new DynamicKubernetesApi("apiextensions.k8s.io", "v1",
                "customresourcedefinitions", client);
        JsonObject crd = JSON.getGson().toJsonTree(CustomResourceDefinitions.definition(Crate.class)).getAsJsonObject();
        definitions.create(new DynamicKubernetesObject(crd)).throwsApiException();
        DynamicKubernetesApi crateApi = new DynamicKubernetesApi("served.watchkeeper.dev", "v1", "crates", client);
        await().atMost(Duration.ofSeconds(60)).until(() -> crateApi.get(namespace(), "c1").isSuccess());
        DynamicKubernetesObject crate = crateApi.get(namespace(), "c1").throwsApiException().getObject();
        assertThat(crate.getMetadata().getOwnerReferences()).singleElement()
                .satisfies(owner -> assertThat(owner.getName()).isEqualTo("c1"));
        await().atMost(Duration.ofSeconds(30)).until(() -> !crateWatcherHealth(http).has("awaitsServing"));
        assertThat(http.get("/actuator/health").status()).isEqualTo(200);

        core.deleteNamespacedConfigMap("c1", namespace()).execute();
        definitions.delete("crates.served.watchkeeper.dev").throwsApiException();
    }

    private static JsonObject crateWatcherHealth(Http http) {
        return http.get("/actuator/health").json().getAsJsonObject().getAsJsonObject("components")
                .getAsJsonObject("watchkeeper").getAsJsonObject("details").getAsJsonObject("watchers")
                .getAsJsonObject(WATCHER);
    }

    /** Another operator's kind: its CRD is installed only halfway through the test. */
    @KubernetesResource(group = "served.watchkeeper.dev", version = "v1", plural = "crates")
    public static class Crate implements KubernetesObject {

        String apiVersion = "served.watchkeeper.dev/v1";
        String kind = "Crate";
        V1ObjectMeta metadata;
        Map<String, String> spec;

        @Override
        public V1ObjectMeta getMetadata() {
            return metadata;
        }

        @Override
        public String getApiVersion() {
            return apiVersion;
        }

        @Override
        public String getKind() {
            return kind;
        }
    }

    // nested in the class with the tests, so other test applications of this package do not scan it
    @SpringBootApplication
    static class App {

        @Bean
        Crates crates() {
            return new Crates();
        }
    }

    /** Gives each labelled ConfigMap a Secret and, once Crates are served, a Crate. */
    static class Crates {

        static final Dependents<V1ConfigMap> PARTS = Dependents.of(V1ConfigMap.class,
                Dependent.of("settings", V1Secret.class, (V1ConfigMap request, ReconcileContext context) ->
                        new V1Secret().metadata(new V1ObjectMeta().namespace(request.getMetadata().getNamespace())
                                .name(request.getMetadata().getName() + "-settings"))),
                Dependent.of("crate", Crate.class, (V1ConfigMap request, ReconcileContext context) -> {
                    Crate crate = new Crate();
                    crate.metadata = new V1ObjectMeta().namespace(request.getMetadata().getNamespace())
                            .name(request.getMetadata().getName());
                    crate.spec = Map.of("size", "small");
                    return crate;
                }));

        volatile DependentsResult last;

        @Reconciler(name = "crates", labelSelector = LABEL + "=yes", owns = V1Secret.class,
                ownsWhenServed = Crate.class)
        void reconcile(V1ConfigMap request, ReconcileContext context) throws ApiException, InterruptedException {
            last = context.reconcileDependents(PARTS);
        }
    }
}
