package dev.watchkeeper.test.stub;

import static dev.watchkeeper.test.stub.Replies.added;
import static dev.watchkeeper.test.stub.Replies.cm;
import static dev.watchkeeper.test.stub.Replies.connectionReset;
import static dev.watchkeeper.test.stub.Replies.crdMissing;
import static dev.watchkeeper.test.stub.Replies.events;
import static dev.watchkeeper.test.stub.Replies.expired;
import static dev.watchkeeper.test.stub.Replies.expiredEvent;
import static dev.watchkeeper.test.stub.Replies.forbidden;
import static dev.watchkeeper.test.stub.Replies.initialEventsEnd;
import static dev.watchkeeper.test.stub.Replies.internalError;
import static dev.watchkeeper.test.stub.Replies.nonJson200;
import static dev.watchkeeper.test.stub.Replies.page;
import static dev.watchkeeper.test.stub.Replies.serviceUnavailable;
import static dev.watchkeeper.test.stub.Replies.status;
import static dev.watchkeeper.test.stub.Replies.tooManyRequests;
import static dev.watchkeeper.test.stub.Replies.undecodable;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMapList;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Scripts are consumed in order, answers have the shapes of a real API server, every request is recorded. */
class KubeApiStubTest {

    private static final String PATH = "/api/v1/namespaces/default/configmaps";
    private static final Duration LIMIT = Duration.ofSeconds(10);

    private final KubeApiStub stub = new KubeApiStub();
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private CoreV1Api api;

    @BeforeEach
    void start() {
        stub.start();
        api = new CoreV1Api(stub.apiClient());
    }

    @AfterEach
    void stop() {
        stub.close();
    }

    @Test
    void listPagesAreServedInOrderAndRequestsRecorded() throws ApiException {
        stub.on(PATH)
                .list(page(cm("a"), cm("b")).continueToken("c1").resourceVersion(null))
                .list(page(cm("c")).resourceVersion("3"));

        V1ConfigMapList first = api.listNamespacedConfigMap("default").limit(2).execute();
        V1ConfigMapList second = api.listNamespacedConfigMap("default").limit(2)._continue("c1").execute();

        assertThat(first.getItems()).extracting(c -> c.getMetadata().getName()).containsExactly("a", "b");
        assertThat(first.getMetadata().getContinue()).isEqualTo("c1");
        assertThat(first.getMetadata().getResourceVersion()).isNull();
        assertThat(second.getItems()).extracting(c -> c.getMetadata().getName()).containsExactly("c");
        assertThat(second.getMetadata().getResourceVersion()).isEqualTo("3");
        assertThat(second.getKind()).isEqualTo("ConfigMapList");
        List<RecordedRequest> lists = stub.listRequests(PATH);
        assertThat(lists).hasSize(2);
        assertThat(lists.get(0).limit()).isEqualTo(2);
        assertThat(lists.get(0).continueToken()).isNull();
        assertThat(lists.get(1).continueToken()).isEqualTo("c1");
        assertThat(lists.get(1).isWatch()).isFalse();
        assertThat(stub.watchRequests(PATH)).isEmpty();
        stub.assertScriptConsumed();
        stub.assertNoViolations();
    }

    @Test
    void watchParametersAreRecorded() throws Exception {
        stub.on(PATH).watch(events(added(cm("a", "4"))));

        get(PATH + "?watch=true&resourceVersion=3&allowWatchBookmarks=true&timeoutSeconds=290"
                + "&labelSelector=app%3Dweb&fieldSelector=metadata.name%3Da&sendInitialEvents=true"
                + "&resourceVersionMatch=NotOlderThan");

        RecordedRequest watch = stub.awaitRequests(PATH, 1, LIMIT).get(0);
        assertThat(watch.isWatch()).isTrue();
        assertThat(watch.method()).isEqualTo("GET");
        assertThat(watch.resourceVersion()).isEqualTo("3");
        assertThat(watch.allowWatchBookmarks()).isTrue();
        assertThat(watch.timeoutSeconds()).isEqualTo(290);
        assertThat(watch.labelSelector()).isEqualTo("app=web");
        assertThat(watch.fieldSelector()).isEqualTo("metadata.name=a");
        assertThat(watch.sendInitialEvents()).isTrue();
        assertThat(watch.resourceVersionMatch()).isEqualTo("NotOlderThan");
        assertThat(watch.param("watch")).isEqualTo("true");
        assertThat(stub.watchRequests(PATH)).containsExactly(watch);
    }

    @Test
    void forbiddenHasTheApiServersShape() throws Exception {
        stub.on(PATH).list(forbidden("configmaps", "default"));

        HttpResponse<String> response = get(PATH);

        assertThat(response.statusCode()).isEqualTo(403);
        assertThat(response.body()).isEqualTo("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},"
                + "\"status\":\"Failure\",\"message\":\"configmaps is forbidden: User "
                + "\\\"system:serviceaccount:default:app\\\" cannot list resource \\\"configmaps\\\" in API group "
                + "\\\"\\\" in the namespace \\\"default\\\"\",\"reason\":\"Forbidden\",\"details\":{\"kind\":"
                + "\"configmaps\"},\"code\":403}");
    }

    @Test
    void crdMissingHasTheApiServersShape() throws Exception {
        stub.on("/apis/example.com/v1/namespaces/default/widgets").list(crdMissing());

        HttpResponse<String> response = get("/apis/example.com/v1/namespaces/default/widgets");

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(response.body()).isEqualTo("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},"
                + "\"status\":\"Failure\",\"message\":\"the server could not find the requested resource\","
                + "\"reason\":\"NotFound\",\"details\":{},\"code\":404}");
    }

    @Test
    void tooManyRequestsCarriesRetryAfter() throws Exception {
        stub.on(PATH).list(tooManyRequests(1));

        HttpResponse<String> response = get(PATH);

        assertThat(response.statusCode()).isEqualTo(429);
        assertThat(response.headers().firstValue("Retry-After")).hasValue("1");
        JsonObject status = JsonParser.parseString(response.body()).getAsJsonObject();
        assertThat(status.get("reason").getAsString()).isEqualTo("TooManyRequests");
        assertThat(status.getAsJsonObject("details").get("retryAfterSeconds").getAsInt()).isEqualTo(1);
        assertThat(status.get("code").getAsInt()).isEqualTo(429);
    }

    @Test
    void everyStatusHelperSetsCodeReasonAndMessage() throws Exception {
        List<StatusReply> replies = List.of(expired(), internalError(), serviceUnavailable(), status(401),
                status(504), Replies.tooOldResourceVersion("3", "10"));
        replies.forEach(reply -> stub.on(PATH).list(reply));

        for (StatusReply reply : replies) {
            HttpResponse<String> response = get(PATH);
            JsonObject status = JsonParser.parseString(response.body()).getAsJsonObject();
            assertThat(response.statusCode()).isEqualTo(reply.code());
            assertThat(status.get("kind").getAsString()).isEqualTo("Status");
            assertThat(status.get("status").getAsString()).isEqualTo("Failure");
            assertThat(status.get("code").getAsInt()).isEqualTo(reply.code());
            assertThat(status.get("reason").getAsString()).isEqualTo(reply.reason()).isNotBlank();
            assertThat(status.get("message").getAsString()).isEqualTo(reply.message()).isNotBlank();
        }
        assertThat(replies).extracting(StatusReply::reason)
                .containsExactly("Expired", "InternalError", "ServiceUnavailable", "Unauthorized", "Timeout",
                        "Expired");
    }

    @Test
    void watchEventShapesMatchTheApiServers() {
        assertThat(expiredEvent("123", "456").text()).isEqualTo("{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\","
                + "\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\",\"message\":\"too old resource "
                + "version: 123 (456)\",\"reason\":\"Expired\",\"code\":410}}");
        assertThat(initialEventsEnd("12746").text()).isEqualTo("{\"type\":\"BOOKMARK\",\"object\":{\"kind\":"
                + "\"ConfigMap\",\"apiVersion\":\"v1\",\"metadata\":{\"resourceVersion\":\"12746\",\"annotations\":"
                + "{\"k8s.io/initial-events-end\":\"true\"}}}}");
        assertThat(Replies.bookmark("7").text()).doesNotContain("annotations").contains("\"resourceVersion\":\"7\"");
        assertThat(undecodable("bad", "9").text()).contains("\"type\":\"ADDED\"", "\"name\":\"bad\"");
        assertThatThrownBy(() -> api.listNamespacedConfigMap("default").execute()).isInstanceOf(ApiException.class);
    }

    @Test
    void exhaustedScriptListsEmptyAndWatchesIdle() throws Exception {
        stub.on(PATH).list(page(cm("a")).resourceVersion("5"));
        api.listNamespacedConfigMap("default").execute();
        assertThat(stub.scriptConsumed()).isTrue();

        V1ConfigMapList after = api.listNamespacedConfigMap("default").execute();
        assertThat(after.getItems()).isEmpty();
        assertThat(after.getMetadata().getResourceVersion()).isEqualTo("1");

        assertTimeoutPreemptively(LIMIT, () -> {
            HttpResponse<java.io.InputStream> watch = http.send(
                    HttpRequest.newBuilder(URI.create(stub.url() + PATH + "?watch=true")).build(),
                    HttpResponse.BodyHandlers.ofInputStream());
            assertThat(watch.statusCode()).isEqualTo(200);
            BufferedReader lines = new BufferedReader(new InputStreamReader(watch.body(), StandardCharsets.UTF_8));
            org.awaitility.Awaitility.await().atMost(LIMIT).until(() -> stub.openStreams() == 1);
            stub.reset();
            assertThat(lines.readLine()).isNull();
        });
        stub.assertNoViolations();
    }

    @Test
    void callOfTheWrongKindIsAViolation() throws Exception {
        stub.on(PATH).list(page(cm("a")));

        HttpResponse<String> response = get(PATH + "?watch=true");

        assertThat(response.statusCode()).isEqualTo(500);
        assertThat(response.body()).contains("stub script expected a list but got a watch");
        assertThat(stub.violations()).singleElement()
                .satisfies(v -> assertThat(v.problem()).isEqualTo("stub script expected a list but got a watch"))
                .satisfies(v -> assertThat(v.request().isWatch()).isTrue());
        assertThat(stub.scriptConsumed()).isFalse();
        assertThatThrownBy(stub::assertNoViolations).isInstanceOf(AssertionError.class)
                .hasMessageContaining("expected a list but got a watch");
        assertThatThrownBy(stub::assertScriptConsumed).isInstanceOf(AssertionError.class)
                .hasMessageContaining(PATH);
    }

    @Test
    void unscriptedPathIsAViolation() throws Exception {
        HttpResponse<String> response = get("/api/v1/namespaces/other/configmaps");

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(stub.violations()).singleElement()
                .satisfies(v -> assertThat(v.problem()).contains("no script for GET /api/v1/namespaces/other"));
    }

    @Test
    void discoveryListsBuiltInsAndScriptedResources() throws Exception {
        stub.on("/apis/example.com/v1/namespaces/default/widgets");
        stub.resource("example.com/v1", "clusterwidgets", "ClusterWidget", false);

        JsonObject core = JsonParser.parseString(get("/api/v1").body()).getAsJsonObject();
        JsonObject group = JsonParser.parseString(get("/apis/example.com/v1").body()).getAsJsonObject();
        JsonObject groups = JsonParser.parseString(get("/apis").body()).getAsJsonObject();

        assertThat(core.get("kind").getAsString()).isEqualTo("APIResourceList");
        assertThat(core.getAsJsonArray("resources").toString())
                .contains("\"name\":\"configmaps\"", "\"name\":\"secrets\"", "\"name\":\"pods\"",
                        "{\"name\":\"namespaces\",\"singularName\":\"namespace\",\"namespaced\":false");
        assertThat(group.get("groupVersion").getAsString()).isEqualTo("example.com/v1");
        assertThat(group.getAsJsonArray("resources").toString())
                .contains("\"name\":\"widgets\",\"singularName\":\"widget\",\"namespaced\":true,\"kind\":\"Widget\"",
                        "\"name\":\"clusterwidgets\"", "\"namespaced\":false");
        assertThat(groups.toString()).contains("\"name\":\"example.com\"", "\"groupVersion\":\"example.com/v1\"");
        assertThat(get("/version").body()).contains("\"gitVersion\":\"v1.33.0\"");
        assertThat(get("/api").body()).contains("\"versions\":[\"v1\"]");
        assertThat(get("/apis/other.io/v1").statusCode()).isEqualTo(404);
        assertThat(stub.requests()).hasSize(6);
    }

    @Test
    void faultsAndRawBodiesReachTheClient() throws Exception {
        stub.on(PATH).list(connectionReset()).list(Replies.emptyResponse()).list(Replies.malformedChunk())
                .list(Replies.randomDataThenClose()).list(nonJson200("<html>login</html>"));
        okhttp3.OkHttpClient client = stub.apiClient().getHttpClient();
        okhttp3.Request request = new okhttp3.Request.Builder().url(stub.url() + PATH).build();

        for (int i = 0; i < 4; i++) {
            assertThatThrownBy(() -> {
                try (okhttp3.Response response = client.newCall(request).execute()) {
                    response.body().string();
                }
            }).isInstanceOf(IOException.class);
        }
        try (okhttp3.Response raw = client.newCall(request).execute()) {
            assertThat(raw.code()).isEqualTo(200);
            assertThat(raw.body().string()).isEqualTo("<html>login</html>");
        }
        assertThat(stub.requests()).hasSize(5);
        stub.assertScriptConsumed();
    }

    @Test
    void awaitRequestsFailsWithWhatArrived() {
        assertThatThrownBy(() -> stub.awaitRequests(PATH, 1, Duration.ofMillis(50)))
                .isInstanceOf(AssertionError.class).hasMessageContaining("expected 1 requests to " + PATH);
    }

    @Test
    void awaitScriptConsumedReturnsOnceUsed() throws Exception {
        stub.on(PATH).list(page());
        get(PATH);

        stub.awaitScriptConsumed(LIMIT);

        assertThat(stub.requests()).singleElement().satisfies(r -> assertThat(r.isList()).isTrue());
    }

    @Test
    void resetForgetsScriptsAndRequests() throws Exception {
        stub.on(PATH).list(page()).list(page());
        get(PATH);

        stub.reset();

        assertThat(stub.requests()).isEmpty();
        assertThat(stub.scriptConsumed()).isTrue();
        assertThat(stub.requests().size()).isZero();
    }

    private HttpResponse<String> get(String pathAndQuery) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(stub.url() + pathAndQuery)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
