package dev.watchkeeper.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.watchkeeper.autoconfigure.endpoint.WatchkeeperEndpoint;
import dev.watchkeeper.autoconfigure.endpoint.WebhooksDescriptor.ConversionDescriptor;
import dev.watchkeeper.sample.crd.DeployedConversion;
import dev.watchkeeper.sample.generator.ConfigMapGenerator;
import dev.watchkeeper.sample.generator.ConfigMapGeneratorReconciler;
import dev.watchkeeper.sample.generator.ConfigMapGeneratorV1alpha1;
import dev.watchkeeper.test.boot.AutoConfigureRealKubeApi;
import dev.watchkeeper.test.controlplane.KubeControlPlane;
import dev.watchkeeper.test.controlplane.TestNamespace;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The sample's conversion webhook on the real control plane: with {@code watchkeeper.webhooks.register=true} the
 * starter points the CRD's conversion at the webhook server of the sample's reconciler on loopback, with its CA
 * bundle, and the kube-apiserver converts through it over TLS: a generator written as v1alpha1 is stored as v1
 * (what the reconciler reads) and reads back as either version, one written as v1 reads as v1alpha1, and an entry
 * the conversion cannot read refuses the write with the conversion's message. The certificate Secret is removed and the CRD's conversion
 * put back as {@code deploy/} has it after the class.
 */
@AutoConfigureRealKubeApi
@SpringBootTest(classes = ConfigMapGeneratorConversionOnControlPlaneTest.Application.class, properties = {
        "spring.application.name=" + ConfigMapGeneratorConversionOnControlPlaneTest.NAME,
        "watchkeeper.webhooks.register=true",
        "watchkeeper.webhooks.address=127.0.0.1",
        "watchkeeper.webhooks.certificate-secret=" + ConfigMapGeneratorConversionOnControlPlaneTest.NAME})
@DirtiesContext
class ConfigMapGeneratorConversionOnControlPlaneTest {

    static final String NAME = "sample-conversion-test";
    static final String CRD = ConfigMapGenerator.PLURAL + "." + ConfigMapGenerator.GROUP;
    static final int PORT = LoopbackWebhooks.freePort();
    static final Duration WAIT = Duration.ofSeconds(60);
    static KubeControlPlane plane;
    static String namespace;

    @Autowired
    WatchkeeperEndpoint endpoint;

    /** The sample's reconciler, which reads the stored v1; its multi-version resource brings the conversion. */
    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    @Import(ConfigMapGeneratorReconciler.class)
    static class Application {
    }

    @BeforeAll
    static void installCrd(KubeControlPlane controlPlane, TestNamespace testNamespace) {
        plane = controlPlane;
        namespace = testNamespace.name();
        LoopbackWebhooks.installCrd(plane);
    }

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        LoopbackWebhooks.register(registry, () -> namespace, PORT);
    }

    @AfterAll
    static void restore() throws ApiException {
        new CoreV1Api(plane.apiClient()).deleteNamespacedSecret(NAME, "default").execute();
        DeployedConversion.restore(plane);
    }

    @Test
    void aGeneratorWrittenAsV1alpha1IsStoredAsV1_readsBackAsEither_andIsReconciled() throws ApiException {
        JsonObject written = generator(ConfigMapGeneratorV1alpha1.API_VERSION, "old-style",
                "{\"count\":2,\"namePrefix\":\"old\",\"entries\":[\"greeting=hello, world\",\"farewell=bye=now\"]}");

        // until the API server has taken up the registered conversion
        await().atMost(WAIT).pollInterval(Duration.ofMillis(500)).until(() ->
                generators(ConfigMapGeneratorV1alpha1.VERSION).create(new DynamicKubernetesObject(written))
                        .isSuccess());

        JsonObject asV1 = generators(ConfigMapGenerator.VERSION).get(namespace, "old-style").throwsApiException()
                .getObject().getRaw();
        assertThat(asV1.get("apiVersion").getAsString()).isEqualTo(ConfigMapGenerator.API_VERSION);
        assertThat(asV1.get("spec")).isEqualTo(JsonParser.parseString("{\"replicas\":2,\"namePrefix\":\"old\","
                + "\"content\":{\"greeting\":\"hello, world\",\"farewell\":\"bye=now\"}}"));
        JsonObject asV1alpha1 = generators(ConfigMapGeneratorV1alpha1.VERSION).get(namespace, "old-style")
                .throwsApiException().getObject().getRaw();
        assertThat(asV1alpha1.get("apiVersion").getAsString()).isEqualTo(ConfigMapGeneratorV1alpha1.API_VERSION);
        assertThat(asV1alpha1.getAsJsonObject("spec").get("count").getAsInt()).isEqualTo(2);
        assertThat(asV1alpha1.getAsJsonObject("spec").getAsJsonArray("entries").asList())
                .extracting(JsonElement::getAsString)
                .containsExactlyInAnyOrder("greeting=hello, world", "farewell=bye=now");
        assertThat(asV1alpha1.getAsJsonObject("metadata").get("uid"))
                .isEqualTo(asV1.getAsJsonObject("metadata").get("uid"));

        JsonObject crd = new DynamicKubernetesApi("apiextensions.k8s.io", "v1", "customresourcedefinitions",
                plane.apiClient()).get(CRD).throwsApiException().getObject().getRaw();
        assertThat(crd.getAsJsonObject("status").getAsJsonArray("storedVersions").asList())
                .extracting(JsonElement::getAsString).containsExactly(ConfigMapGenerator.VERSION);
        assertThat(crd.getAsJsonObject("spec").getAsJsonObject("conversion").getAsJsonObject("webhook")
                .getAsJsonObject("clientConfig").get("url").getAsString())
                .isEqualTo("https://127.0.0.1:" + PORT + "/convert");

        // the reconciler reads v1
        CoreV1Api core = new CoreV1Api(plane.apiClient());
        await().atMost(WAIT).untilAsserted(() -> {
            V1ConfigMap second = core.readNamespacedConfigMap("old-1", namespace).execute();
            assertThat(second.getData()).isEqualTo(Map.of("greeting", "hello, world", "farewell", "bye=now"));
        });
    }

    @Test
    void theStarterAppliedTheConversionWithItsCaBundle_andTheSchemaOnlyWhenItAppliesTheCrds() throws ApiException {
        JsonObject crd = new DynamicKubernetesApi("apiextensions.k8s.io", "v1", "customresourcedefinitions",
                plane.apiClient()).get(CRD).throwsApiException().getObject().getRaw();

        JsonObject applied = crd.getAsJsonObject("metadata").getAsJsonArray("managedFields").asList().stream()
                .map(JsonElement::getAsJsonObject)
                .filter(entry -> entry.get("manager").getAsString().equals("watchkeeper")
                        && entry.get("operation").getAsString().equals("Apply"))
                .findFirst().orElseThrow().getAsJsonObject("fieldsV1").getAsJsonObject("f:spec");
        assertThat(applied.keySet()).isEqualTo(specFieldsTheStarterApplies());
        assertThat(applied.getAsJsonObject("f:conversion").getAsJsonObject("f:webhook")
                .getAsJsonObject("f:clientConfig").keySet()).contains("f:caBundle", "f:url");
        assertThat(crd.getAsJsonObject("spec").getAsJsonObject("conversion").getAsJsonObject("webhook")
                .getAsJsonObject("clientConfig").has("service")).as("the manifest's Service replaced").isFalse();
    }

    /** What of {@code spec} the field manager {@code watchkeeper} applied: the conversion alone, by default. */
    Set<String> specFieldsTheStarterApplies() {
        return Set.of("f:conversion");
    }

    @Test
    void theEndpointListsTheConversion() {
        assertThat(endpoint.watchkeeper().webhooks().conversions()).containsExactly(new ConversionDescriptor(CRD,
                "v1", List.of("v1", "v1alpha1"), "/convert"));
    }

    @Test
    void aGeneratorWrittenAsV1ReadsAsV1alpha1() throws ApiException {
        JsonObject written = generator(ConfigMapGenerator.API_VERSION, "new-style",
                "{\"namePrefix\":\"new\",\"content\":{\"a\":\"1\"}}");
        generators(ConfigMapGenerator.VERSION).create(new DynamicKubernetesObject(written)).throwsApiException();

        await().atMost(WAIT).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            KubernetesApiResponse<DynamicKubernetesObject> read = generators(ConfigMapGeneratorV1alpha1.VERSION)
                    .get(namespace, "new-style");
            assertThat(read.isSuccess()).as("read as v1alpha1: %s", read.getStatus()).isTrue();
            assertThat(read.getObject().getRaw().get("spec")).as("v1's default replicas written out")
                    .isEqualTo(JsonParser.parseString("{\"count\":1,\"namePrefix\":\"new\",\"entries\":[\"a=1\"]}"));
        });
    }

    @Test
    void anEntryTheConversionCannotReadRefusesTheWriteWithItsMessage() {
        JsonObject written = generator(ConfigMapGeneratorV1alpha1.API_VERSION, "broken",
                "{\"entries\":[\"greeting\"]}");

        await().atMost(WAIT).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            KubernetesApiResponse<DynamicKubernetesObject> refused = generators(ConfigMapGeneratorV1alpha1.VERSION)
                    .create(new DynamicKubernetesObject(written));
            assertThat(refused.isSuccess()).isFalse();
            assertThat(refused.getStatus().getMessage()).contains("converting ConfigMapGenerator " + namespace
                    + "/broken from v1alpha1 to v1 failed: spec.entries: 'greeting' is not key=value");
        });
    }

    private static DynamicKubernetesApi generators(String version) {
        return new DynamicKubernetesApi(ConfigMapGenerator.GROUP, version, ConfigMapGenerator.PLURAL,
                plane.apiClient());
    }

    private static JsonObject generator(String apiVersion, String name, String spec) {
        return JsonParser.parseString("{\"apiVersion\":\"" + apiVersion + "\",\"kind\":\"" + ConfigMapGenerator.KIND
                + "\",\"metadata\":{\"name\":\"" + name + "\",\"namespace\":\"" + namespace + "\"},\"spec\":" + spec
                + "}").getAsJsonObject();
    }
}
