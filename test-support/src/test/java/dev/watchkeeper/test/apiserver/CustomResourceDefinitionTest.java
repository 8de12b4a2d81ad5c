package dev.watchkeeper.test.apiserver;

import com.google.gson.JsonObject;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class CustomResourceDefinitionTest extends InMemoryServerTest {

    private static final String WIDGETS = "/apis/example.com/v1/namespaces/default/widgets";
    private static final String CRD = """
            {"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
             "metadata":{"name":"widgets.example.com"},
             "spec":{"group":"example.com","scope":"Namespaced",
                     "names":{"plural":"widgets","singular":"widget","kind":"Widget","shortNames":["wd"]},
                     "versions":[{"name":"v1","served":true,"storage":true,"subresources":{"status":{}},
                                  "schema":{"openAPIV3Schema":{"type":"object"}}},
                                 {"name":"v2","served":false,"storage":false}]}}""";

    @Test
    void customResourceIsServedOnlyWhileItsDefinitionExists() {
        HttpResponse<String> before = http.get(WIDGETS);
        assertThat(before.statusCode()).isEqualTo(404);
        assertThat(RawHttp.json(before).get("message").getAsString())
                .isEqualTo("the server could not find the requested resource");

        HttpResponse<String> created = http.send("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
                "application/json", CRD);
        assertThat(created.statusCode()).isEqualTo(201);
        JsonObject condition = RawHttp.json(created).getAsJsonObject("status").getAsJsonArray("conditions")
                .asList().stream().map(c -> c.getAsJsonObject())
                .filter(c -> c.get("type").getAsString().equals("Established")).findFirst().orElseThrow();
        assertThat(condition.get("status").getAsString()).isEqualTo("True");

        assertThat(http.send("POST", WIDGETS, "application/json",
                "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\",\"metadata\":{\"name\":\"w\"},"
                        + "\"spec\":{\"size\":1},\"status\":{\"ok\":false}}").statusCode()).isEqualTo(201);
        RawHttp.Watch watch = http.watch(WIDGETS + "?watch=true");
        await().until(() -> watch.changes().size() == 1);
        HttpResponse<String> status = http.send("PATCH", WIDGETS + "/w/status", "application/merge-patch+json",
                "{\"status\":{\"ok\":true}}");
        assertThat(RawHttp.json(status).getAsJsonObject("status").get("ok").getAsBoolean()).isTrue();
        JsonObject list = RawHttp.json(http.get("/apis/example.com/v1/widgets"));
        assertThat(list.get("kind").getAsString()).isEqualTo("WidgetList");
        assertThat(list.getAsJsonArray("items")).hasSize(1);
        assertThat(http.get("/apis/example.com/v2/widgets").statusCode()).as("v2 is not served").isEqualTo(404);

        JsonObject resources = RawHttp.json(http.get("/apis/example.com/v1"));
        assertThat(resources.getAsJsonArray("resources").toString())
                .contains("\"name\":\"widgets\"", "\"kind\":\"Widget\"", "\"shortNames\":[\"wd\"]",
                        "\"name\":\"widgets/status\"");
        assertThat(http.get("/apis").body()).contains("\"name\":\"example.com\"",
                "\"preferredVersion\":{\"groupVersion\":\"example.com/v1\",\"version\":\"v1\"}");

        assertThat(http.send("DELETE", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com",
                null, null).statusCode()).isEqualTo(200);
        await().until(() -> watch.ended);
        assertThat(http.get(WIDGETS).statusCode()).isEqualTo(404);
        assertThat(http.get("/apis/example.com/v1").statusCode()).isEqualTo(404);
        assertThat(http.get("/apis").body()).doesNotContain("example.com");
    }

    @Test
    void javaHelperCreatesAClusterScopedDefinition() {
        server.createCustomResourceDefinition("example.com", "v1alpha1", "gadgets", "Gadget", false);
        assertThat(http.send("POST", "/apis/example.com/v1alpha1/gadgets", "application/json",
                "{\"metadata\":{\"name\":\"g\"}}").statusCode()).isEqualTo(201);
        assertThat(server.get("example.com", "gadgets", null, "g")).isPresent();
        assertThat(http.get("/apis/example.com/v1alpha1/namespaces/default/gadgets").statusCode()).isEqualTo(404);
        assertThat(server.delete("apiextensions.k8s.io", "customresourcedefinitions", null, "gadgets.example.com"))
                .isTrue();
        assertThat(http.get("/apis/example.com/v1alpha1/gadgets").statusCode()).isEqualTo(404);
    }
}
