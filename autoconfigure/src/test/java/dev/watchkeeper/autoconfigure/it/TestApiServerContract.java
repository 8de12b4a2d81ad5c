package dev.watchkeeper.autoconfigure.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.gson.JsonParser;
import dev.watchkeeper.annotation.Reconciler;
import dev.watchkeeper.autoconfigure.KubernetesConnectionDetails;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.test.annotation.DirtiesContext;

/**
 * One application and the same assertions on the in-memory API server and on the real control plane (the
 * subclasses), each given by an annotation on the test class alone (no kubeconfig file, no property): the
 * application's client is the one the starter builds from the {@link KubernetesConnectionDetails} the annotation
 * contributes, its writes carry the application's name as the field manager the API server derives from the
 * User-Agent, and a reconciler writes through it. (Subclasses, not {@code @Nested} classes: Surefire's per-class
 * summaries, which CI adds up, count a nested class's tests as none.)
 */
@SpringBootTest(classes = TestApiServerContract.App.class, properties = "spring.application.name=contract-app")
@DirtiesContext // a test server closes with the context, and the watchers stop with the class
abstract class TestApiServerContract {

    static final String LABEL = "watchkeeper.dev/contract";

    @Autowired
    ApiClient client;

    @Autowired
    KubernetesConnectionDetails connection;

    abstract String serverUrl();

    abstract String namespace();

    @Test
    void theApplicationsClientIsBuiltFromTheConnectionTheAnnotationContributes() {
        assertThat(connection.getServerUrl()).isEqualTo(serverUrl());
        assertThat(client.getBasePath()).isEqualTo(serverUrl());
    }

    @Test
    void itWritesAsTheApplication_andAReconcilerWritesThroughIt() throws ApiException {
        CoreV1Api core = new CoreV1Api(client);
        core.createNamespacedConfigMap(namespace(), new V1ConfigMap().metadata(new V1ObjectMeta()
                .name("contract").namespace(namespace()).labels(Map.of(LABEL, "yes")))).execute();

        // the API server's default field manager is the User-Agent up to its first '/'; read as JSON because
        // client-java's models drop managedFields
        String json = client.<String>execute(core.readNamespacedConfigMap("contract", namespace()).buildCall(null),
                String.class).getData();
        assertThat(JsonParser.parseString(json).getAsJsonObject().getAsJsonObject("metadata")
                .getAsJsonArray("managedFields").asList())
                .extracting(entry -> entry.getAsJsonObject().get("manager").getAsString())
                .containsExactly("contract-app");
        await().atMost(Duration.ofSeconds(30)).until(
                () -> core.readNamespacedConfigMap("contract", namespace()).execute().getMetadata(),
                meta -> meta.getAnnotations() != null && "true".equals(meta.getAnnotations().get("reconciled")));
    }

    // nested in the class with the tests, so other test applications of this package do not scan it
    @SpringBootApplication
    static class App {

        @Bean
        Marker marker(ApiClient client) {
            return new Marker(new CoreV1Api(client));
        }
    }

    /** Annotates every labelled ConfigMap {@code reconciled=true}. */
    static class Marker {

        private final CoreV1Api core;

        Marker(CoreV1Api core) {
            this.core = core;
        }

        @Reconciler(name = "contract", labelSelector = LABEL + "=yes")
        void reconcile(V1ConfigMap configMap) throws ApiException {
            V1ObjectMeta meta = configMap.getMetadata();
            if (meta.getAnnotations() == null || !meta.getAnnotations().containsKey("reconciled")) {
                meta.putAnnotationsItem("reconciled", "true");
                core.replaceNamespacedConfigMap(meta.getName(), meta.getNamespace(), configMap).execute();
            }
        }
    }
}
