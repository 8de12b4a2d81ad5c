package dev.watchkeeper.test.apiserver;

import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;

import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

class FaultInjectionTest extends InMemoryServerTest {

    private static final String CONFIGMAPS = "/api/v1/namespaces/default/configmaps";

    @Test
    void outageAnswers503UntilItEnds() {
        RawHttp.Watch watch = http.watch(CONFIGMAPS + "?watch=true");
        await().until(() -> server.openWatches() == 1);
        server.outage(Duration.ofMillis(300));
        await().until(() -> watch.ended);
        HttpResponse<String> during = http.get(CONFIGMAPS);
        assertThat(during.statusCode()).isEqualTo(503);
        assertThat(RawHttp.json(during).get("reason").getAsString()).isEqualTo("ServiceUnavailable");
        await().atMost(Duration.ofSeconds(2)).until(() -> http.get(CONFIGMAPS).statusCode() == 200);

        server.outage(Duration.ofHours(1));
        assertThat(http.get(CONFIGMAPS).statusCode()).isEqualTo(503);
        server.endOutage();
        assertThat(http.get(CONFIGMAPS).statusCode()).isEqualTo(200);
    }

    @Test
    void refusedConnectionsOutageRebindsTheSamePort() {
        int port = server.port();
        assertThat(http.get(CONFIGMAPS).statusCode()).isEqualTo(200);
        server.outage(Duration.ofHours(1), OutageMode.CONNECTION_REFUSED);
        assertThatThrownBy(() -> http.get(CONFIGMAPS)).isInstanceOf(UncheckedIOException.class);
        server.endOutage();
        await().atMost(Duration.ofSeconds(3)).ignoreExceptions().until(() -> http.get(CONFIGMAPS).statusCode() == 200);
        assertThat(server.port()).isEqualTo(port);

        server.outage(Duration.ofMillis(200), OutageMode.CONNECTION_REFUSED);
        await().atMost(Duration.ofSeconds(3)).ignoreExceptions().until(() -> http.get(CONFIGMAPS).statusCode() == 200);
        assertThat(server.port()).isEqualTo(port);
    }

    @Test
    void forbidAnswers403WithTheRealShape() {
        server.forbid("configmaps");
        HttpResponse<String> response = http.get(CONFIGMAPS);
        assertThat(response.statusCode()).isEqualTo(403);
        JsonObject status = RawHttp.json(response);
        assertThat(status.get("message").getAsString()).isEqualTo("configmaps is forbidden: User "
                + "\"system:serviceaccount:default:app\" cannot list resource \"configmaps\" in API group \"\" in the "
                + "namespace \"default\"");
        assertThat(status.get("reason").getAsString()).isEqualTo("Forbidden");
        assertThat(status.getAsJsonObject("details").get("kind").getAsString()).isEqualTo("configmaps");
        assertThat(status.get("code").getAsInt()).isEqualTo(403);
        assertThat(http.get("/api/v1/configmaps?watch=true").statusCode()).isEqualTo(403);
        assertThat(http.get("/api/v1/namespaces/default/secrets").statusCode()).isEqualTo(200);
        server.allow("configmaps");
        assertThat(http.get(CONFIGMAPS).statusCode()).isEqualTo(200);
    }

    @Test
    void hideAnswers404AndLeavesDiscovery() {
        server.hide("coordination.k8s.io", "leases");
        HttpResponse<String> response = http.get("/apis/coordination.k8s.io/v1/namespaces/default/leases");
        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(RawHttp.json(response).get("message").getAsString())
                .isEqualTo("the server could not find the requested resource");
        assertThat(http.get("/apis").body()).doesNotContain("coordination.k8s.io");
        server.allow("coordination.k8s.io", "leases");
        assertThat(http.get("/apis/coordination.k8s.io/v1/namespaces/default/leases").statusCode()).isEqualTo(200);
    }

    @Test
    void throttleAnswers429WithRetryAfter() {
        server.throttle(2, Duration.ofSeconds(3));
        for (int i = 0; i < 2; i++) {
            HttpResponse<String> response = http.get(CONFIGMAPS);
            assertThat(response.statusCode()).isEqualTo(429);
            assertThat(response.headers().firstValue("Retry-After")).hasValue("3");
            JsonObject status = RawHttp.json(response);
            assertThat(status.get("reason").getAsString()).isEqualTo("TooManyRequests");
            assertThat(status.getAsJsonObject("details").get("retryAfterSeconds").getAsInt()).isEqualTo(3);
        }
        assertThat(http.get(CONFIGMAPS).statusCode()).isEqualTo(200);
    }

    @Test
    void delayedResponsesStillArrive() {
        server.delayResponses(Duration.ofMillis(200));
        long start = System.nanoTime();
        assertThat(http.get(CONFIGMAPS).statusCode()).isEqualTo(200);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(200));
        server.delayResponses(Duration.ZERO);
    }

    @Test
    void requestsAreCountedPerResource() {
        server.create(new V1ConfigMap().metadata(new V1ObjectMeta().name("x").namespace("default")));
        server.outage(Duration.ofHours(1));
        http.get(CONFIGMAPS + "?limit=500");
        http.get(CONFIGMAPS + "?watch=true&resourceVersion=1");
        http.get("/api/v1/namespaces/default/secrets");
        http.get("/version");
        assertThat(server.requestCount()).isEqualTo(4);
        assertThat(server.requests("configmaps")).extracting(ServedRequest::toString).containsExactly(
                "GET /api/v1/namespaces/default/configmaps?limit=500",
                "GET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=1");
        assertThat(server.requests("configmaps")).filteredOn(ServedRequest::isWatch).hasSize(1);
        assertThat(server.requests("secrets")).hasSize(1);
    }

    @Test
    void closeLeavesNoThreads() {
        http.watch(CONFIGMAPS + "?watch=true&allowWatchBookmarks=true");
        await().until(() -> server.openWatches() == 1);
        server.close();
        // A pool thread can still be finishing its exit when the pool reports termination (and an earlier test's
        // closed server likewise), so allow the threads a moment to die; none may linger.
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(Thread.getAllStackTraces().keySet())
                .noneMatch(t -> t.isAlive() && t.getName().startsWith("kube-api-fake-")));
    }
}
