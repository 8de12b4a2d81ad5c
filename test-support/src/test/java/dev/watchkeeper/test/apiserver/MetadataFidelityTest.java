package dev.watchkeeper.test.apiserver;

import com.google.gson.JsonObject;
import org.junit.jupiter.api.Test;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.URI;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** Generation, omitted empty fields, PodTemplates and Table lists, as a real kube-apiserver v1.37 answers. */
class MetadataFidelityTest extends InMemoryServerTest {

    @Test
    void emptyMetadataMapsAndListsAreNotStored() {
        JsonObject created = RawHttp.json(http.send("POST", "/api/v1/namespaces/default/configmaps",
                "application/json", "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"e\","
                        + "\"labels\":{},\"annotations\":{},\"finalizers\":[],\"ownerReferences\":[]},\"data\":{}}"));
        assertThat(created.getAsJsonObject("metadata").keySet())
                .containsExactlyInAnyOrder("name", "namespace", "uid", "resourceVersion", "creationTimestamp");
        assertThat(created.has("data")).isFalse();
    }

    @Test
    void customResourcesBumpGenerationOnChangesOutsideMetadataAndStatus() {
        server.createCustomResourceDefinition("example.com", "v1", "widgets", "Widget", true);
        String path = "/apis/example.com/v1/namespaces/default/widgets/w";
        http.send("POST", "/apis/example.com/v1/namespaces/default/widgets", "application/json",
                "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\",\"metadata\":{\"name\":\"w\"},\"spec\":{\"size\":1}}");

        assertThat(generationAfter(path, "{\"metadata\":{\"labels\":{\"a\":\"b\"}}}")).isEqualTo(1);
        assertThat(generationAfter(path, "{\"other\":{\"x\":1}}")).as("any field but metadata and status").isEqualTo(2);
        assertThat(generationAfter(path + "/status", "{\"status\":{\"x\":1}}")).isEqualTo(2);
        assertThat(generationAfter(path, "{\"spec\":{\"size\":2}}")).isEqualTo(3);
    }

    @Test
    void builtInsWithoutADesiredStateHaveNoGenerationAndPodTemplatesBumpOnTheirTemplate() {
        JsonObject lease = RawHttp.json(http.send("POST", "/apis/coordination.k8s.io/v1/namespaces/default/leases",
                "application/json", "{\"apiVersion\":\"coordination.k8s.io/v1\",\"kind\":\"Lease\","
                        + "\"metadata\":{\"name\":\"l\"},\"spec\":{\"holderIdentity\":\"x\"}}"));
        assertThat(lease.getAsJsonObject("metadata").has("generation")).isFalse();

        String template = "/api/v1/namespaces/default/podtemplates";
        http.send("POST", template, "application/json", "{\"apiVersion\":\"v1\",\"kind\":\"PodTemplate\","
                + "\"metadata\":{\"name\":\"t\"},\"template\":{\"spec\":{\"containers\":[{\"name\":\"c\"}]}}}");
        assertThat(generationAfter(template + "/t", "{\"metadata\":{\"labels\":{\"a\":\"b\"}}}")).isEqualTo(1);
        assertThat(generationAfter(template + "/t", "{\"template\":{\"metadata\":{\"labels\":{\"a\":\"b\"}}}}"))
                .isEqualTo(2);
    }

    @Test
    void anEmptyTableOfAClusterScopedResourceHasNoNamespace() throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(server.url() + "/api/v1/namespaces?limit=500"))
                .header("Accept", "application/json;as=Table;v=v1;g=meta.k8s.io,application/json")
                .timeout(Duration.ofSeconds(10)).build();
        JsonObject table = RawHttp.json(HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString()));
        assertThat(table.get("kind").getAsString()).isEqualTo("Table");
        assertThat(table.get("apiVersion").getAsString()).isEqualTo("meta.k8s.io/v1");
        assertThat(table.getAsJsonArray("columnDefinitions").asList().stream()
                .map(c -> c.getAsJsonObject().get("name").getAsString()).toList()).containsExactly("Name", "Age");
        assertThat(table.getAsJsonArray("rows")).isEmpty();
    }

    @Test
    void ageIsPrintedAsTheRealServerDoes() {
        assertThat(TableFormat.humanDuration(Duration.ofSeconds(78))).isEqualTo("78s");
        assertThat(TableFormat.humanDuration(Duration.ofSeconds(318))).isEqualTo("5m18s");
        assertThat(TableFormat.humanDuration(Duration.ofHours(3))).isEqualTo("3h");
        assertThat(TableFormat.humanDuration(Duration.ofHours(52))).isEqualTo("2d4h");
    }

    private long generationAfter(String path, String mergePatch) {
        HttpResponse<String> response = http.send("PATCH", path, "application/merge-patch+json", mergePatch);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return RawHttp.json(response).getAsJsonObject("metadata").get("generation").getAsLong();
    }
}
