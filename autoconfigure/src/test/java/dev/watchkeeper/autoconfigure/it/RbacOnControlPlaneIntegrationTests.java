package dev.watchkeeper.autoconfigure.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.gson.JsonObject;
import dev.watchkeeper.annotation.Reconciler;
import dev.watchkeeper.test.controlplane.KubeControlPlane;
import dev.watchkeeper.test.controlplane.RealKubeApi;
import dev.watchkeeper.test.controlplane.TestNamespace;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.RbacAuthorizationV1Api;
import io.kubernetes.client.openapi.models.RbacV1Subject;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PolicyRule;
import io.kubernetes.client.openapi.models.V1Role;
import io.kubernetes.client.openapi.models.V1RoleBinding;
import io.kubernetes.client.openapi.models.V1RoleRef;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * RBAC on the real control plane, over the actuator: a watcher whose user may not list ConfigMaps backs off with
 * 403 and the "grant list and watch" message; once a Role and RoleBinding grant it, the endpoint's retry-now brings
 * it to WATCHING at once instead of after its 30 s backoff.
 */
@RealKubeApi
@SpringBootTest(classes = RbacOnControlPlaneIntegrationTests.App.class, webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = {
                "management.endpoints.web.exposure.include=health,watchkeeper",
                "watchkeeper.backoff.initial-interval=30s",
                "watchkeeper.backoff.max-interval=60s"})
class RbacOnControlPlaneIntegrationTests {

    static KubeControlPlane plane;
    static String namespace;

    @LocalServerPort
    int port;

    @BeforeAll
    static void connect(KubeControlPlane controlPlane, TestNamespace testNamespace) {
        plane = controlPlane;
        namespace = testNamespace.name();
    }

    @DynamicPropertySource
    static void namespace(DynamicPropertyRegistry registry) {
        registry.add("rbac.namespace", () -> namespace);
    }

    @Test
    void forbiddenBacksOffThenRetryNowRecoversOnceGranted() throws Exception {
        Http http = new Http(port);
        String watcher = "/actuator/watchkeeper/configmaps@" + namespace;

        JsonObject backingOff = awaitWatcher(http, watcher, w -> "BACKING_OFF".equals(w.get("phase").getAsString()));
        JsonObject error = backingOff.getAsJsonObject("lastError");
        assertThat(error.get("code").getAsInt()).isEqualTo(403);
        assertThat(error.get("message").getAsString()).contains("grant list and watch")
                .contains(plane.unprivilegedUser());
        assertThat(Duration.parse(backingOff.get("currentDelay").getAsString()))
                .isGreaterThanOrEqualTo(Duration.ofSeconds(30));
        assertThat(http.get("/actuator/health/readiness").status()).isEqualTo(503);

        grantConfigMaps();
        // A grant reaches the API server's authorizer within moments; each retry is one POST, as a user would send.
        await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofSeconds(1)).until(() -> {
            JsonObject state = http.get(watcher).json().getAsJsonObject();
            if (state.get("synced").getAsBoolean()) {
                return true;
            }
            assertThat(http.post(watcher).status()).isEqualTo(200);
            return false;
        });
        assertThat(http.get(watcher).json().getAsJsonObject().get("phase").getAsString()).isEqualTo("WATCHING");
    }

    private static void grantConfigMaps() throws Exception {
        RbacAuthorizationV1Api rbac = new RbacAuthorizationV1Api(plane.apiClient());
        rbac.createNamespacedRole(namespace, new V1Role().metadata(new V1ObjectMeta().name("configmap-reader"))
                .rules(List.of(new V1PolicyRule().apiGroups(List.of("")).resources(List.of("configmaps"))
                        .verbs(List.of("get", "list", "watch"))))).execute();
        rbac.createNamespacedRoleBinding(namespace, new V1RoleBinding()
                .metadata(new V1ObjectMeta().name("configmap-reader"))
                .roleRef(new V1RoleRef().apiGroup("rbac.authorization.k8s.io").kind("Role").name("configmap-reader"))
                .subjects(List.of(new RbacV1Subject().kind("User").apiGroup("rbac.authorization.k8s.io")
                        .name(plane.unprivilegedUser())))).execute();
    }

    private static JsonObject awaitWatcher(Http http, String path, java.util.function.Predicate<JsonObject> condition) {
        JsonObject[] found = new JsonObject[1];
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            found[0] = http.get(path).json().getAsJsonObject();
            return condition.test(found[0]);
        });
        return found[0];
    }

    @SpringBootApplication
    static class App {

        @Bean
        ApiClient apiClient() {
            return plane.unprivilegedApiClient();
        }

        @Bean
        Readers readers() {
            return new Readers();
        }
    }

    static class Readers {

        @Reconciler(name = "readers", namespace = "${rbac.namespace}")
        void reconcile(V1ConfigMap configMap) {
        }
    }
}
