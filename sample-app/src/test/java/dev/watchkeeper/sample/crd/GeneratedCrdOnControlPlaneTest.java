package dev.watchkeeper.sample.crd;

import static org.assertj.core.api.Assertions.assertThat;

import static org.awaitility.Awaitility.await;

import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.watchkeeper.crd.CustomResourceDefinitions;
import dev.watchkeeper.readme.Database;
import dev.watchkeeper.test.boot.AutoConfigureRealKubeApi;
import dev.watchkeeper.test.controlplane.KubeControlPlane;
import dev.watchkeeper.test.controlplane.TestNamespace;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** The generated CRD on the real control plane, whose API server also enforces the schema's validations. */
@AutoConfigureRealKubeApi
class GeneratedCrdOnControlPlaneTest extends GeneratedCrdScenario {

    @Autowired
    KubeControlPlane plane;

    @BeforeEach
    void inTheClassNamespace(TestNamespace testNamespace) {
        namespace = testNamespace.name();
    }

    @Test
    void aReplicaCountBelowMinIsRefused() {
        KubernetesApiResponse<DynamicKubernetesObject> refused = create("negative",
                Map.of("content", Map.of("a", "b"), "replicas", -1));

        assertThat(refused.getHttpStatusCode()).isEqualTo(422);
        assertThat(refused.getStatus().getMessage())
                .contains("spec.replicas: Invalid value: -1: spec.replicas in body should be greater than or equal to 0");
    }

    @Test
    void aNamePrefixBreakingTheCelRuleIsRefusedWithItsMessage() {
        KubernetesApiResponse<DynamicKubernetesObject> refused = create("dashed",
                Map.of("content", Map.of("a", "b"), "namePrefix", "hello-"));

        assertThat(refused.getHttpStatusCode()).isEqualTo(422);
        assertThat(refused.getStatus().getMessage())
                .contains("namePrefix must not end with '-': the ConfigMaps' names add '-<i>'");
    }

    @Test
    void aGeneratorWithoutContentIsRefused() {
        KubernetesApiResponse<DynamicKubernetesObject> refused = create("empty", Map.of("replicas", 1));

        assertThat(refused.getHttpStatusCode()).isEqualTo(422);
        assertThat(refused.getStatus().getMessage()).contains("spec.content: Required value");
    }

    @Test
    void theReadmesDatabaseCrdIsAcceptedAndItsRulesHold() throws ApiException {
        DynamicKubernetesApi definitions = new DynamicKubernetesApi("apiextensions.k8s.io", "v1",
                "customresourcedefinitions", client);
        definitions.create(new DynamicKubernetesObject(json(CustomResourceDefinitions.definition(Database.class))))
                .throwsApiException();
        DynamicKubernetesApi databases = new DynamicKubernetesApi("example.com", "v1", "databases", client);
        await().atMost(Duration.ofSeconds(30)).until(() -> databases.list(namespace).isSuccess());

        Map<String, Object> spec = Map.of("engine", "postgres", "replicas", 3, "databaseName", "orders",
                "port", "pg", "users", List.of(Map.of("name", "app", "role", "owner")));
        JsonObject written = database("orders", spec);
        assertThat(databases.create(new DynamicKubernetesObject(written)).throwsApiException().getObject().getRaw()
                .get("spec")).isEqualTo(written.get("spec"));

        KubernetesApiResponse<DynamicKubernetesObject> even = databases.create(new DynamicKubernetesObject(
                database("even", Map.of("engine", "postgres", "replicas", 2))));
        assertThat(even.getHttpStatusCode()).isEqualTo(422);
        assertThat(even.getStatus().getMessage()).contains("postgres needs an odd number of replicas");
        KubernetesApiResponse<DynamicKubernetesObject> unknown = databases.create(new DynamicKubernetesObject(
                database("oracle", Map.of("engine", "oracle"))));
        assertThat(unknown.getHttpStatusCode()).isEqualTo(422);
        assertThat(unknown.getStatus().getMessage())
                .contains("spec.engine: Unsupported value: \"oracle\": supported values: \"postgres\", \"mysql\"");
    }

    private JsonObject database(String name, Map<String, Object> spec) {
        return json(Map.of("apiVersion", "example.com/v1", "kind", "Database",
                "metadata", Map.of("namespace", namespace, "name", name), "spec", spec));
    }

    @Test
    void everyOtherSchemaFeatureIsAcceptedAndReadsBack() throws ApiException {
        new DynamicKubernetesApi("apiextensions.k8s.io", "v1", "customresourcedefinitions", client)
                .create(new DynamicKubernetesObject(json(CustomResourceDefinitions.definition(Gizmo.class))))
                .throwsApiException();
        DynamicKubernetesApi gizmos = new DynamicKubernetesApi("test.watchkeeper.dev", "v1beta1", "gizmos", client);
        await().atMost(Duration.ofSeconds(30)).until(() -> gizmos.list().isSuccess());
        Map<String, Object> spec = Map.ofEntries(Map.entry("replicas", 2), Map.entry("size", "1Gi"),
                Map.entry("port", 8080), Map.entry("ratio", 0.5), Map.entry("bytes", 5_000_000_000L),
                Map.entry("since", "2026-12-04T06:00:00Z"), Map.entry("blob", "aGk="),
                Map.entry("anything", List.of(1, "two")), Map.entry("raw", Map.of("a", Map.of("b", true))),
                Map.entry("extra", Map.of("x", 1)),
                Map.entry("template", Map.of("apiVersion", "v1", "kind", "ConfigMap",
                        "metadata", Map.of("name", "t"), "data", Map.of("k", "v"))),
                Map.entry("groups", Map.of("g", List.of("a", "b"))), Map.entry("tags", List.of("x", "y")),
                Map.entry("label", "ab-c"), Map.entry("weights", List.of(1, 2)));
        JsonObject written = json(Map.of("apiVersion", "test.watchkeeper.dev/v1beta1", "kind", "Gizmo",
                "metadata", Map.of("name", "everything"), "spec", spec));

        gizmos.create(new DynamicKubernetesObject(written)).throwsApiException();

        assertThat(gizmos.get("everything").throwsApiException().getObject().getRaw().get("spec"))
                .isEqualTo(written.get("spec"));
        KubernetesApiResponse<DynamicKubernetesObject> refused = gizmos.create(new DynamicKubernetesObject(json(Map.of(
                "apiVersion", "test.watchkeeper.dev/v1beta1", "kind", "Gizmo", "metadata", Map.of("name", "bad"),
                "spec", Map.of("label", "ab-", "tags", List.of("x", "x"))))));
        assertThat(refused.getHttpStatusCode()).isEqualTo(422);
        assertThat(refused.getStatus().getMessage()).contains("spec.label: Invalid value: \"ab-\"")
                .contains("spec.tags[1]: Duplicate value: \"x\"");
    }

    @Test
    void descriptionsDefaultsNullableAndTheWiderConstraintsHoldOnTheServer() throws ApiException, IOException {
        DynamicKubernetesApi definitions = new DynamicKubernetesApi("apiextensions.k8s.io", "v1",
                "customresourcedefinitions", client);
        definitions.create(new DynamicKubernetesObject(json(CustomResourceDefinitions.definition(Cog.class))))
                .throwsApiException();
        DynamicKubernetesApi cogs = new DynamicKubernetesApi("test.watchkeeper.dev", "v1", "cogs", client);
        await().atMost(Duration.ofSeconds(30)).until(() -> cogs.list(namespace).isSuccess());
        JsonObject served = definitions.get("cogs.test.watchkeeper.dev").throwsApiException().getObject().getRaw();
        JsonObject spec = served.getAsJsonObject("spec").getAsJsonArray("versions").get(0).getAsJsonObject()
                .getAsJsonObject("schema").getAsJsonObject("openAPIV3Schema").getAsJsonObject("properties")
                .getAsJsonObject("spec");
        assertThat(spec.get("description").getAsString()).isEqualTo("What the cog should be.");
        assertThat(spec.getAsJsonObject("properties").getAsJsonObject("teeth").get("description").getAsString())
                .isEqualTo("How many teeth it has.");

        JsonObject empty = cog("defaulted", new JsonObject());
        JsonObject defaulted = cogs.create(new DynamicKubernetesObject(empty)).throwsApiException().getObject()
                .getRaw().getAsJsonObject("spec");
        assertThat(defaulted.get("teeth").getAsInt()).isEqualTo(12);
        assertThat(defaulted.get("name").getAsString()).isEqualTo("plain");
        assertThat(defaulted.getAsJsonArray("materials").asList()).extracting(JsonElement::getAsString)
                .containsExactly("steel");

        // written by kubectl, which sends the nulls (client-java's Gson leaves null members out)
        Path manifest = Files.createTempFile("cog", ".yaml");
        Files.writeString(manifest, "apiVersion: test.watchkeeper.dev/v1\nkind: Cog\nmetadata:\n  name: kept\n"
                + "  namespace: " + namespace + "\nspec:\n  note: null\n  name: null\n  materials: [brass]\n"
                + "  finish: {flat: true, grit: 400}\n");
        plane.kubectl("create", "-f", manifest.toString());
        Files.delete(manifest);
        JsonObject read = JsonParser.parseString(plane.kubectl("get", "cogs.test.watchkeeper.dev", "kept", "-n",
                namespace, "-o", "json")).getAsJsonObject().getAsJsonObject("spec");
        assertThat(read.get("note")).as("nullable: the server keeps null").isEqualTo(JsonNull.INSTANCE);
        assertThat(read.get("name").getAsString()).as("not nullable: null pruned, then defaulted").isEqualTo("plain");
        assertThat(read.getAsJsonObject("finish").get("grit").getAsInt()).as("unknown field preserved")
                .isEqualTo(400);

        assertThat(refusal(cogs, "toothless", Map.of("teeth", 0)))
                .contains("spec.teeth: Invalid value: 0: spec.teeth in body should be greater than 0");
        assertThat(refusal(cogs, "blank", Map.of("name", "   ")))
                .contains("spec.name in body should match '\\S'");
        assertThat(refusal(cogs, "bare", Map.of("materials", List.of()))).contains("spec.materials in body should have at least 1 items");
        assertThat(refusal(cogs, "long", Map.of("materials", List.of("unobtainium"))))
                .contains("spec.materials[0]: Too long: may not be more than 10 bytes");
    }

    private String refusal(DynamicKubernetesApi cogs, String name, Map<String, Object> spec) {
        KubernetesApiResponse<DynamicKubernetesObject> refused = cogs.create(new DynamicKubernetesObject(
                cog(name, json(spec))));
        assertThat(refused.getHttpStatusCode()).as(refused.getStatus().getMessage()).isEqualTo(422);
        return refused.getStatus().getMessage();
    }

    private JsonObject cog(String name, JsonObject spec) {
        JsonObject cog = json(Map.of("apiVersion", "test.watchkeeper.dev/v1", "kind", "Cog",
                "metadata", Map.of("namespace", namespace, "name", name)));
        cog.add("spec", spec);
        return cog;
    }
}
