package dev.watchkeeper.test.apiserver;

import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Server-side apply and managedFields over HTTP; every expected body was first read from a real kube-apiserver v1.37. */
class ServerSideApplyTest extends InMemoryServerTest {

    private static final String X = "/api/v1/namespaces/default/configmaps/x";
    private static final String APPLY = "application/apply-patch+yaml";

    @Test
    void applyCreatesTheObjectAndRecordsTheApplierFields() {
        HttpResponse<String> created = apply("alice", false, """
                apiVersion: v1
                kind: ConfigMap
                metadata:
                  name: x
                  labels: {app: x}
                data:
                  a: "1"
                """);
        assertThat(created.statusCode()).isEqualTo(201);
        JsonObject entry = managedFields(RawHttp.json(created)).get(0).getAsJsonObject();
        assertThat(entry.get("manager").getAsString()).isEqualTo("alice");
        assertThat(entry.get("operation").getAsString()).isEqualTo("Apply");
        assertThat(entry.get("apiVersion").getAsString()).isEqualTo("v1");
        assertThat(entry.get("fieldsType").getAsString()).isEqualTo("FieldsV1");
        assertThat(entry.get("time").getAsString()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ");
        assertThat(entry.get("fieldsV1").toString())
                .isEqualTo("{\"f:data\":{\"f:a\":{}},\"f:metadata\":{\"f:labels\":{\"f:app\":{}}}}");
    }

    @Test
    void anotherManagerChangingAnOwnedFieldConflictsUnlessForced() {
        apply("alice", false, "{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {a: '1', b: '2'}}");
        String bob = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"x\"},"
                + "\"data\":{\"a\":\"9\",\"b\":\"8\",\"c\":\"3\"}}";

        HttpResponse<String> conflict = apply("bob", false, bob);
        assertThat(conflict.statusCode()).isEqualTo(409);
        JsonObject status = RawHttp.json(conflict);
        assertThat(status.get("reason").getAsString()).isEqualTo("Conflict");
        assertThat(status.get("message").getAsString()).isEqualTo(
                "Apply failed with 2 conflicts: conflicts with \"alice\":\n- .data.a\n- .data.b");
        JsonObject cause = status.getAsJsonObject("details").getAsJsonArray("causes").get(0).getAsJsonObject();
        assertThat(cause.get("reason").getAsString()).isEqualTo("FieldManagerConflict");
        assertThat(cause.get("message").getAsString()).isEqualTo("conflict with \"alice\"");
        assertThat(cause.get("field").getAsString()).isEqualTo(".data.a");

        HttpResponse<String> forced = apply("bob", true, bob);
        assertThat(forced.statusCode()).isEqualTo(200);
        assertThat(RawHttp.json(forced).getAsJsonObject("data").toString())
                .isEqualTo("{\"a\":\"9\",\"b\":\"8\",\"c\":\"3\"}");
        assertThat(managedFields(RawHttp.json(forced)).toString()).as("alice lost what bob took")
                .doesNotContain("alice");
    }

    @Test
    void aConflictWithAnUpdateManagerNamesItsApiVersion() throws Exception {
        new CoreV1Api(server.apiClient()).createNamespacedConfigMap("default",
                new V1ConfigMap().metadata(new V1ObjectMeta().name("x")).data(Map.of("a", "1")))
                .fieldManager("editor").execute();

        JsonObject status = RawHttp.json(apply("alice", false,
                "{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {a: '2'}}"));
        assertThat(status.get("message").getAsString())
                .isEqualTo("Apply failed with 1 conflict: conflict with \"editor\" using v1: .data.a");
    }

    @Test
    void fieldsTheApplierAloneOwnedAndNoLongerAppliesAreRemoved() {
        apply("alice", false, "{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {a: '1', b: '2'}}");
        apply("bob", false, "{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {a: '1'}}");

        JsonObject after = RawHttp.json(apply("alice", false,
                "{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {}}"));

        assertThat(after.getAsJsonObject("data").toString()).as("a stays: bob applies it too").isEqualTo("{\"a\":\"1\"}");
    }

    @Test
    void updatesRecordTheirManagerFromFieldManagerOrTheUserAgent() {
        http.send("POST", "/api/v1/namespaces/default/configmaps?fieldManager=creator", "application/json",
                "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"x\"},\"data\":{\"a\":\"1\"}}");
        JsonObject patched = RawHttp.json(http.send("PATCH", X, "application/merge-patch+json",
                "{\"data\":{\"b\":\"2\"}}"));

        assertThat(entry(patched, "creator").toString()).isEqualTo("{\"manager\":\"creator\",\"operation\":\"Update\","
                + "\"apiVersion\":\"v1\",\"time\":\"" + entry(patched, "creator").get("time").getAsString() + "\","
                + "\"fieldsType\":\"FieldsV1\",\"fieldsV1\":{\"f:data\":{\".\":{},\"f:a\":{}}}}");
        assertThat(entry(patched, "Java-http-client").get("fieldsV1").toString())
                .as("no fieldManager: the User-Agent's product, as the real server records")
                .isEqualTo("{\"f:data\":{\"f:b\":{}}}");
    }

    @Test
    void keyedListsAndSetsOwnTheirItems() {
        JsonObject applied = RawHttp.json(http.send("PATCH", "/api/v1/namespaces/default/pods/p?fieldManager=m",
                APPLY, """
                        apiVersion: v1
                        kind: Pod
                        metadata:
                          name: p
                          finalizers: [example.com/x]
                        spec:
                          containers:
                          - name: c
                            image: nginx
                        """));
        assertThat(managedFields(applied).get(0).getAsJsonObject().get("fieldsV1").toString()).isEqualTo(
                "{\"f:metadata\":{\"f:finalizers\":{\"v:\\\"example.com/x\\\"\":{}}},\"f:spec\":{\"f:containers\":"
                        + "{\"k:{\\\"name\\\":\\\"c\\\"}\":{\".\":{},\"f:image\":{},\"f:name\":{}}}}}");
    }

    @Test
    void anApplyMustNameAFieldManagerAndCarryApiVersionAndKindButNoManagedFields() {
        HttpResponse<String> noManager = http.send("PATCH", X, APPLY, "{apiVersion: v1, kind: ConfigMap}");
        assertThat(noManager.statusCode()).isEqualTo(422);
        assertThat(RawHttp.json(noManager).get("message").getAsString())
                .isEqualTo("PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value: is required for"
                        + " apply patch");

        HttpResponse<String> noKind = apply("m", false, "{apiVersion: v1, metadata: {name: x}}");
        assertThat(noKind.statusCode()).isEqualTo(400);
        assertThat(RawHttp.json(noKind).get("message").getAsString()).isEqualTo("invalid object type: /v1, Kind=");

        HttpResponse<String> withManagedFields = apply("m", false,
                "{apiVersion: v1, kind: ConfigMap, metadata: {name: x, managedFields: [{manager: y}]}}");
        assertThat(withManagedFields.statusCode()).isEqualTo(400);
        assertThat(RawHttp.json(withManagedFields).get("message").getAsString())
                .isEqualTo("metadata.managedFields must be nil");
    }

    private HttpResponse<String> apply(String manager, boolean force, String body) {
        return http.send("PATCH", X + "?fieldManager=" + manager + (force ? "&force=true" : ""), APPLY, body);
    }

    private static com.google.gson.JsonArray managedFields(JsonObject object) {
        return object.getAsJsonObject("metadata").getAsJsonArray("managedFields");
    }

    private static JsonObject entry(JsonObject object, String manager) {
        return managedFields(object).asList().stream().map(e -> e.getAsJsonObject())
                .filter(e -> e.get("manager").getAsString().equals(manager)).findFirst().orElseThrow();
    }
}
