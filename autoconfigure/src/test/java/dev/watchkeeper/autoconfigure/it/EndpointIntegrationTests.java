package dev.watchkeeper.autoconfigure.it;

import static dev.watchkeeper.test.stub.Replies.cm;
import static dev.watchkeeper.test.stub.Replies.events;
import static dev.watchkeeper.test.stub.Replies.page;
import static dev.watchkeeper.test.stub.Replies.serviceUnavailable;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.gson.JsonObject;
import dev.watchkeeper.annotation.Reconciler;
import dev.watchkeeper.test.boot.AutoConfigureKubeApiStub;
import dev.watchkeeper.test.boot.KubeApiStubCustomizer;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.test.annotation.DirtiesContext;

/**
 * {@code /actuator/watchkeeper}, health, readiness and metrics over real HTTP while a watcher fails, backs off, is
 * told to retry now, and recovers.
 */
@SpringBootTest(classes = {EndpointIntegrationTests.App.class, EndpointIntegrationTests.Script.class},
        webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = {
                "management.endpoints.web.exposure.include=health,watchkeeper,metrics",
                "management.endpoint.health.show-details=always",
                "management.endpoint.health.probes.enabled=true",
                "watchkeeper.backoff.initial-interval=30s",
                "watchkeeper.backoff.max-interval=60s"})
@AutoConfigureKubeApiStub
@DirtiesContext
class EndpointIntegrationTests {

    static final String WATCHER = "configmaps@team";

    @LocalServerPort
    int port;

    /** The API stub's script, written before the application's first call. */
    @TestConfiguration
    static class Script {

        @Bean
        KubeApiStubCustomizer script() {
            return stub -> {
                stub.on("/api/v1/namespaces/team/configmaps")
                        .list(serviceUnavailable())
                        .list(serviceUnavailable())
                        .list(page(cm("a", "5")).resourceVersion("5"))
                        .watch(events().thenStayOpen());
            };
        }
    }

    @Test
    void showsTheBackoffRetriesNowOnRequestAndRecovers() {
        Http http = new Http(port);

        JsonObject backingOff = awaitWatcher(http, w -> phase(w).equals("BACKING_OFF"));
        assertThat(backingOff.get("consecutiveFailures").getAsInt()).isEqualTo(1);
        assertThat(Duration.parse(backingOff.get("currentDelay").getAsString())).isBetween(Duration.ofSeconds(30),
                Duration.ofSeconds(60));
        assertThat(Instant.parse(backingOff.get("nextAttemptAt").getAsString())).isAfter(Instant.now());
        JsonObject error = backingOff.getAsJsonObject("lastError");
        assertThat(error.get("kind").getAsString()).isEqualTo("InitialListFailed");
        assertThat(error.get("code").getAsInt()).isEqualTo(503);
        assertThat(backingOff.getAsJsonObject("backoff").get("initialInterval").getAsString()).isEqualTo("PT30S");
        Http.Response health = http.get("/actuator/health");
        assertThat(health.status()).as(health.body()).isEqualTo(503);
        JsonObject indicator = watchkeeperHealth(http);
        assertThat(indicator.get("status").getAsString()).isEqualTo("OUT_OF_SERVICE");
        assertThat(watcherHealth(indicator).get("lastError").getAsString()).startsWith("server error 503 on list");
        assertThat(http.get("/actuator/health/readiness").status()).isEqualTo(503);
        assertThat(http.get("/actuator/health/liveness").status()).isEqualTo(200);

        assertThat(http.post("/actuator/watchkeeper/" + WATCHER).status()).isEqualTo(200);
        JsonObject again = awaitWatcher(http, w -> w.get("consecutiveFailures").getAsInt() == 2
                && phase(w).equals("BACKING_OFF"));
        assertThat(Duration.parse(again.get("currentDelay").getAsString()))
                .as("retry-now starts the backoff over").isLessThan(Duration.ofSeconds(60));

        assertThat(http.post("/actuator/watchkeeper/" + WATCHER).status()).isEqualTo(200);
        JsonObject watching = awaitWatcher(http, w -> phase(w).equals("WATCHING") && w.get("synced").getAsBoolean());
        assertThat(watching.get("objects").getAsInt()).isEqualTo(1);
        assertThat(watching.get("resourceVersion").getAsString()).isEqualTo("5");
        assertThat(watching.getAsJsonArray("indexes")).as("the store's built-in indexes, none looked up yet")
                .extracting(index -> index.getAsJsonObject().get("name").getAsString() + " "
                        + index.getAsJsonObject().get("entries").getAsLong())
                .contains("namespace 0", "owner 0", "label 0");

        await().atMost(Duration.ofSeconds(10)).until(() -> http.get("/actuator/health").status() == 200);
        assertThat(http.get("/actuator/health/readiness").status()).isEqualTo(200);
        assertThat(watcherHealth(watchkeeperHealth(http)).has("lastError"))
                .as("health drops the last error once the watcher is watching again").isFalse();
        JsonObject kept = http.get("/actuator/watchkeeper/" + WATCHER).json().getAsJsonObject()
                .getAsJsonObject("lastError");
        assertThat(kept.get("code").getAsInt()).as("the endpoint keeps it").isEqualTo(503);
        assertThat(Instant.parse(kept.get("at").getAsString())).isBefore(Instant.now());
        JsonObject reconciler = http.get("/actuator/watchkeeper/team").json().getAsJsonObject();
        assertThat(reconciler.get("primaryWatcher").getAsString()).isEqualTo(WATCHER);
        assertThat(reconciler.getAsJsonArray("stuckKeys")).as("no reconcile ignored an interrupt").isEmpty();
        assertThat(reconciler.get("rateLimit").isJsonNull()).as("no retry rate limit unless enabled").isTrue();
        JsonObject byPriority = reconciler.getAsJsonObject("queueByPriority");
        assertThat(byPriority.get("normal").getAsInt() + byPriority.get("low").getAsInt())
                .as("the queue depth by priority").isLessThanOrEqualTo(1);
        JsonObject fence = reconciler.getAsJsonObject("readYourWrites");
        assertThat(fence.get("timeout").getAsString()).as("the read-your-writes fence, on by default")
                .isEqualTo("PT5S");
        assertThat(fence.get("timeouts").getAsLong()).isZero();
        JsonObject backoff = reconciler.getAsJsonObject("backoff");
        assertThat(backoff.get("policy").getAsString()).isEqualTo("exponential-jitter");
        assertThat(backoff.get("initialInterval").getAsString()).as("client-go's per-item curve").isEqualTo("PT0.005S");
        assertThat(backoff.get("maxInterval").getAsString()).isEqualTo("PT16M40S");
        assertThat(backoff.get("multiplier").getAsDouble()).isEqualTo(2.0);
        assertThat(backoff.get("jitter").getAsDouble()).isZero();
        await().atMost(Duration.ofSeconds(10)).until(() -> http.get("/actuator/watchkeeper/team").json()
                .getAsJsonObject().getAsJsonObject("counts").get("reconciles").getAsInt() >= 1);
    }

    @Test
    void exposesMetricsByTheDocumentedNames() {
        Http http = new Http(port);
        for (String name : new String[] {"watchkeeper.watcher.objects", "watchkeeper.watcher.synced",
                "watchkeeper.watcher.backoff.delay", "watchkeeper.watcher.failures", "watchkeeper.watcher.relists",
                "watchkeeper.reconcile.queue.depth", "watchkeeper.reconcile.queue.priority.depth",
                "watchkeeper.reconcile.retries", "watchkeeper.reconcile.read.your.writes.waits",
                "watchkeeper.reconcile.read.your.writes.timeouts",
                "watchkeeper.reconcile.cleanups", "watchkeeper.reconcile.failing.keys"}) {
            assertThat(http.get("/actuator/metrics/" + name).status()).as(name).isEqualTo(200);
        }
    }

    @Test
    void answers404ForAnUnknownName() {
        Http http = new Http(port);
        assertThat(http.get("/actuator/watchkeeper/nope").status()).isEqualTo(404);
        assertThat(http.post("/actuator/watchkeeper/nope").status()).isEqualTo(404);
    }

    private static JsonObject awaitWatcher(Http http, java.util.function.Predicate<JsonObject> condition) {
        JsonObject[] found = new JsonObject[1];
        await().atMost(Duration.ofSeconds(15)).until(() -> {
            found[0] = http.get("/actuator/watchkeeper/" + WATCHER).json().getAsJsonObject();
            return condition.test(found[0]);
        });
        return found[0];
    }

    private static JsonObject watchkeeperHealth(Http http) {
        return http.get("/actuator/health").json().getAsJsonObject().getAsJsonObject("components")
                .getAsJsonObject("watchkeeper");
    }

    private static JsonObject watcherHealth(JsonObject indicator) {
        return indicator.getAsJsonObject("details").getAsJsonObject("watchers").getAsJsonObject(WATCHER);
    }

    private static String phase(JsonObject watcher) {
        return watcher.get("phase").getAsString();
    }

    @SpringBootApplication
    static class App {

        @Bean
        TeamReconciler teamReconciler() {
            return new TeamReconciler();
        }
    }

    static class TeamReconciler {

        @Reconciler(name = "team", namespace = "team")
        void reconcile(V1ConfigMap configMap) {
        }
    }
}
