package dev.watchkeeper.sample.crd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.watchkeeper.crd.CustomResourceDefinitions;
import dev.watchkeeper.sample.generator.ConfigMapGenerator;
import dev.watchkeeper.sample.generator.ConfigMapGeneratorReconciler;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * The sample's reconciler started with {@code watchkeeper.crds.apply=true} on a server that may not know its CRD:
 * start-up applies the generated CRD (both versions, and the conversion webhook the properties name) and waits until
 * it is Established, a generator reads back as written, and the status the reconciler writes passes the generated
 * schema. Run on both servers by the subclasses.
 */
@SpringBootTest(classes = GeneratedCrdScenario.Application.class, properties = {"watchkeeper.crds.apply=true",
        // the conversion webhook as deploy/ has it; this application serves none
        "watchkeeper.webhooks.enabled=false",
        "watchkeeper.webhooks.service.name=" + DeployedConversion.SERVICE,
        "watchkeeper.webhooks.service.namespace=" + DeployedConversion.NAMESPACE})
abstract class GeneratedCrdScenario {

    @Autowired
    ApiClient client;

    /** Where the test's generators live. */
    String namespace = "default";

    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    @Import(ConfigMapGeneratorReconciler.class)
    static class Application {
    }

    DynamicKubernetesApi generators() {
        return new DynamicKubernetesApi(ConfigMapGenerator.GROUP, ConfigMapGenerator.VERSION, ConfigMapGenerator.PLURAL,
                client);
    }

    @Test
    void startUpAppliedTheGeneratedCrdAndItIsEstablished() throws ApiException {
        DynamicKubernetesApi definitions = new DynamicKubernetesApi("apiextensions.k8s.io", "v1",
                "customresourcedefinitions", client);
        JsonObject served = definitions.get(ConfigMapGenerator.PLURAL + "." + ConfigMapGenerator.GROUP)
                .throwsApiException().getObject().getRaw();
        JsonObject generated = json(CustomResourceDefinitions.definition(ConfigMapGenerator.class,
                DeployedConversion.clientConfig()));
        for (int i = 0; i < 2; i++) {
            JsonObject version = served.getAsJsonObject("spec").getAsJsonArray("versions").get(i).getAsJsonObject();
            JsonObject expected = generated.getAsJsonObject("spec").getAsJsonArray("versions").get(i)
                    .getAsJsonObject();
            assertThat(version.get("name")).isEqualTo(expected.get("name"));
            assertThat(version.get("storage")).isEqualTo(expected.get("storage"));
            assertThat(version.get("schema")).isEqualTo(expected.get("schema"));
            assertThat(version.get("subresources")).isEqualTo(expected.get("subresources"));
        }
        assertThat(served.getAsJsonObject("spec").get("conversion"))
                .isEqualTo(generated.getAsJsonObject("spec").get("conversion"));
        assertThat(served.getAsJsonObject("status").getAsJsonArray("conditions").asList())
                .anyMatch(c -> c.getAsJsonObject().get("type").getAsString().equals("Established")
                        && c.getAsJsonObject().get("status").getAsString().equals("True"));
    }

    @Test
    void aGeneratorReadsBackAsWrittenAndTakesTheReconcilersStatus() throws ApiException {
        ConfigMapGenerator generator = ConfigMapGenerator.of(namespace, "greetings",
                Map.of("greeting", "hello, world", "farewell", "bye"));
        generator.getSpec().replicas(2).namePrefix("hello");
        JsonObject written = JSON.getGson().toJsonTree(generator).getAsJsonObject();

        JsonObject created = generators().create(new DynamicKubernetesObject(written)).throwsApiException()
                .getObject().getRaw();
        JsonObject read = generators().get(namespace, "greetings").throwsApiException().getObject().getRaw();

        assertThat(created.get("spec")).isEqualTo(written.get("spec"));
        assertThat(read.get("spec")).isEqualTo(written.get("spec"));
        ConfigMapGenerator decoded = JSON.getGson().fromJson(read, ConfigMapGenerator.class);
        assertThat(decoded.getSpec().getContent()).isEqualTo(generator.getSpec().getContent());
        assertThat(decoded.getSpec().getReplicas()).isEqualTo(2);
        assertThat(decoded.getSpec().getNamePrefix()).isEqualTo("hello");
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(conditions())
                .anyMatch(c -> c.getAsJsonObject().get("type").getAsString().equals("Ready")
                        && c.getAsJsonObject().get("status").getAsString().equals("True")));
    }

    /** The answer to creating a generator whose spec is {@code spec} in the namespace. */
    KubernetesApiResponse<DynamicKubernetesObject> create(String name, Map<String, Object> spec) {
        JsonObject raw = new JsonObject();
        raw.addProperty("apiVersion", ConfigMapGenerator.API_VERSION);
        raw.addProperty("kind", ConfigMapGenerator.KIND);
        raw.add("metadata", json(Map.of("namespace", namespace, "name", name)));
        raw.add("spec", json(spec));
        return generators().create(new DynamicKubernetesObject(raw));
    }

    private List<JsonElement> conditions() {
        JsonObject read = generators().get(namespace, "greetings").getObject().getRaw();
        JsonObject status = read.getAsJsonObject("status");
        return status == null || !status.has("conditions") ? List.of() : status.getAsJsonArray("conditions").asList();
    }

    static JsonObject json(Map<String, Object> value) {
        return JSON.getGson().toJsonTree(value).getAsJsonObject();
    }
}
