package dev.watchkeeper.test.apiserver;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Deletion with finalizers and the garbage collector, over HTTP, as a real kube-apiserver v1.37 answers. */
class FinalizerAndGarbageCollectionTest extends InMemoryServerTest {

    private static final String CONFIGMAPS = "/api/v1/namespaces/default/configmaps";
    private static final Duration CONVERGED = Duration.ofMillis(900);

    @Test
    void deleteWithAFinalizerMarksTheObjectUntilTheLastFinalizerIsRemoved() {
        create("{\"metadata\":{\"name\":\"f\",\"finalizers\":[\"example.com/hold\"]}}");
        long created = server.resourceVersion();
        RawHttp.Watch watch = http.watch(CONFIGMAPS + "?watch=1&resourceVersion=" + created);

        HttpResponse<String> deleted = http.send("DELETE", CONFIGMAPS + "/f", null, null);
        assertThat(deleted.statusCode()).isEqualTo(200);
        JsonObject marked = RawHttp.json(deleted).getAsJsonObject("metadata");
        assertThat(marked.get("deletionTimestamp").getAsString()).isNotBlank();
        assertThat(marked.get("deletionGracePeriodSeconds").getAsInt()).isZero();
        assertThat(marked.get("resourceVersion").getAsLong()).isEqualTo(created + 1);

        HttpResponse<String> again = http.send("DELETE", CONFIGMAPS + "/f", null, null);
        assertThat(RawHttp.json(again).getAsJsonObject("metadata").get("resourceVersion").getAsLong())
                .as("a second DELETE leaves it as is").isEqualTo(created + 1);

        HttpResponse<String> added = http.send("PATCH", CONFIGMAPS + "/f", "application/merge-patch+json",
                "{\"metadata\":{\"finalizers\":[\"example.com/hold\",\"example.com/more\"]}}");
        assertThat(added.statusCode()).isEqualTo(422);
        JsonObject status = RawHttp.json(added);
        assertThat(status.get("reason").getAsString()).isEqualTo("Invalid");
        assertThat(status.get("message").getAsString()).isEqualTo("ConfigMap \"f\" is invalid: metadata.finalizers: "
                + "Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers "
                + "[]string{\"example.com/more\"}");
        assertThat(status.getAsJsonObject("details").getAsJsonArray("causes").get(0).getAsJsonObject()
                .get("reason").getAsString()).isEqualTo("FieldValueForbidden");

        HttpResponse<String> released = http.send("PATCH", CONFIGMAPS + "/f", "application/merge-patch+json",
                "{\"metadata\":{\"finalizers\":null}}");
        assertThat(released.statusCode()).isEqualTo(200);
        assertThat(server.get("", "configmaps", "default", "f")).isEmpty();
        await().atMost(Duration.ofSeconds(5)).until(() -> watch.changes().size() == 2);
        assertThat(watch.changes()).containsExactly("MODIFIED:f", "DELETED:f");
        assertThat(watch.events.get(1).getAsJsonObject("object").getAsJsonObject("metadata")
                .getAsJsonArray("finalizers")).as("DELETED carries the last stored state").hasSize(1);
        watch.cancel();
    }

    @Test
    void deleteWithoutFinalizersAnswersASuccessStatusForConfigMaps() {
        String uid = uid(create("{\"metadata\":{\"name\":\"x\"}}"));
        JsonObject status = RawHttp.json(http.send("DELETE", CONFIGMAPS + "/x", null, null));
        assertThat(status.get("kind").getAsString()).isEqualTo("Status");
        assertThat(status.get("status").getAsString()).isEqualTo("Success");
        assertThat(status.getAsJsonObject("details").get("uid").getAsString()).isEqualTo(uid);
    }

    @Test
    void deletingAnOwnerDeletesItsDependentsRecursivelyAndDropsDanglingReferences() {
        String owner = uid(create("{\"metadata\":{\"name\":\"owner\"}}"));
        String other = uid(create("{\"metadata\":{\"name\":\"other\"}}"));
        String child = uid(create(owned("child", ref("owner", owner, false))));
        create(owned("grandchild", ref("child", child, false)));
        create(owned("shared", ref("owner", owner, false) + "," + ref("other", other, false)));

        http.send("DELETE", CONFIGMAPS + "/owner", null, null);

        await().atMost(CONVERGED).until(() -> server.get("", "configmaps", "default", "grandchild").isEmpty());
        assertThat(server.get("", "configmaps", "default", "child")).isEmpty();
        await().atMost(CONVERGED).untilAsserted(() -> assertThat(ownerNames("shared")).isEqualTo("[other]"));
    }

    @Test
    void orphanPropagationKeepsDependentsAndRemovesTheirReference() {
        String owner = uid(create("{\"metadata\":{\"name\":\"owner\"}}"));
        create(owned("child", ref("owner", owner, false)));

        JsonObject marked = RawHttp.json(http.send("DELETE", CONFIGMAPS + "/owner", "application/json",
                "{\"propagationPolicy\":\"Orphan\"}"));
        assertThat(marked.getAsJsonObject("metadata").getAsJsonArray("finalizers").toString())
                .isEqualTo("[\"orphan\"]");

        await().atMost(CONVERGED).until(() -> server.get("", "configmaps", "default", "owner").isEmpty());
        assertThat(server.get("", "configmaps", "default", "child")).isPresent();
        assertThat(ownerNames("child")).isEqualTo("[]");
    }

    @Test
    void foregroundPropagationKeepsTheOwnerUntilItsBlockingDependentsAreGone() {
        String owner = uid(create("{\"metadata\":{\"name\":\"owner\"}}"));
        create("{\"metadata\":{\"name\":\"blocking\",\"finalizers\":[\"example.com/hold\"],\"ownerReferences\":["
                + ref("owner", owner, true) + "]}}");
        create(owned("plain", ref("owner", owner, false)));

        JsonObject marked = RawHttp.json(http.send("DELETE", CONFIGMAPS + "/owner", "application/json",
                "{\"propagationPolicy\":\"Foreground\"}"));
        assertThat(marked.getAsJsonObject("metadata").getAsJsonArray("finalizers").toString())
                .isEqualTo("[\"foregroundDeletion\"]");

        await().atMost(CONVERGED).until(() -> server.get("", "configmaps", "default", "plain").isEmpty());
        await().atMost(CONVERGED).until(() -> server.get("", "configmaps", "default", "blocking").orElseThrow()
                .getAsJsonObject("metadata").has("deletionTimestamp"));
        assertThat(server.get("", "configmaps", "default", "owner")).as("blocked by a dependent").isPresent();

        http.send("PATCH", CONFIGMAPS + "/blocking", "application/merge-patch+json",
                "{\"metadata\":{\"finalizers\":null}}");
        await().atMost(CONVERGED).until(() -> server.get("", "configmaps", "default", "owner").isEmpty());
    }

    private JsonObject create(String body) {
        JsonObject object = JsonParser.parseString(body).getAsJsonObject();
        object.addProperty("apiVersion", "v1");
        object.addProperty("kind", "ConfigMap");
        HttpResponse<String> response = http.send("POST", CONFIGMAPS, "application/json", object.toString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
        return RawHttp.json(response);
    }

    private String ownerNames(String name) {
        JsonObject metadata = server.get("", "configmaps", "default", name).orElseThrow().getAsJsonObject("metadata");
        return metadata.has("ownerReferences") ? metadata.getAsJsonArray("ownerReferences").asList().stream()
                .map(o -> o.getAsJsonObject().get("name").getAsString()).toList().toString() : "[]";
    }

    private static String owned(String name, String references) {
        return "{\"metadata\":{\"name\":\"" + name + "\",\"ownerReferences\":[" + references + "]}}";
    }

    private static String ref(String name, String uid, boolean block) {
        return "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"name\":\"" + name + "\",\"uid\":\"" + uid + "\""
                + (block ? ",\"blockOwnerDeletion\":true" : "") + "}";
    }

    private static String uid(JsonObject object) {
        return object.getAsJsonObject("metadata").get("uid").getAsString();
    }
}
