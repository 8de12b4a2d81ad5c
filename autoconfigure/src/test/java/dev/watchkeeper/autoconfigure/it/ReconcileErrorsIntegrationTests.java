package dev.watchkeeper.autoconfigure.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.watchkeeper.annotation.Reconciler;
import dev.watchkeeper.reconcile.ReconcileContext;
import dev.watchkeeper.test.apiserver.InMemoryApiServer;
import dev.watchkeeper.test.boot.AutoConfigureInMemoryKubeApi;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;

/**
 * A failing reconcile says what to do about it, over real HTTP and in the log (docs/semantics.md §10): a write the
 * server refuses with 403 is one line in {@code failingKeys[].lastError} naming the call and what to grant, and
 * each attempt logs one WARN line without a stack trace (the trace at DEBUG); a bug in the reconcile logs its stack trace once, at the
 * key's first attempt, and at later attempts one line, the trace then at DEBUG. A write answered 429 with
 * {@code Retry-After} shows the server's wait in {@code failingKeys[].retryAfter}, and is counted.
 */
@SpringBootTest(classes = ReconcileErrorsIntegrationTests.App.class, webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = {
                "management.endpoints.web.exposure.include=watchkeeper,metrics",
                "logging.level.dev.watchkeeper.internal.reconcile.Reconciler=DEBUG"})
@AutoConfigureInMemoryKubeApi
@DirtiesContext
class ReconcileErrorsIntegrationTests {

    static final String DENIED = "patch secrets/default/denied-copy: HTTP 403 Forbidden: secrets is forbidden: User"
            + " \"system:serviceaccount:default:app\" cannot patch resource \"secrets\" in API group \"\" in the"
            + " namespace \"default\" — grant patch on secrets";
    static final String BUG = "java.lang.IllegalStateException: a bug in the reconcile";

    @LocalServerPort
    int port;

    @Autowired
    InMemoryApiServer server;

    private final Logger reconcilerLog = (Logger) LoggerFactory.getLogger(
            dev.watchkeeper.internal.reconcile.Reconciler.class);
    private final ListAppender<ILoggingEvent> logged = new ListAppender<>();

    /** After the context started: Boot's logging set-up would have dropped an appender added before. */
    @BeforeEach
    void captureTheReconcilersLog() {
        logged.start();
        reconcilerLog.addAppender(logged);
    }

    @AfterEach
    void stopCapturing() {
        reconcilerLog.detachAppender(logged);
    }

    @Test
    void aForbiddenWriteShowsAsOneLineNamingTheCallAndWhatToGrantAndLogsEachAttemptWithoutATrace() {
        server.forbid("secrets");
        server.create(new V1ConfigMap().metadata(new V1ObjectMeta().namespace("default").name("denied")));

        JsonObject failing = awaitFailing("default/denied", 3);
        assertThat(failing.get("lastError").getAsString()).isEqualTo(DENIED);

        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            for (int attempt = 1; attempt <= 3; attempt++) {
                assertThat(lines("default/denied", attempt, Level.WARN)).as("attempt %d", attempt).singleElement()
                        .satisfies(line -> {
                            assertThat(line.getThrowableProxy()).as("a stack trace").isNull();
                            assertThat(line.getFormattedMessage()).endsWith(": " + DENIED);
                        });
                assertThat(lines("default/denied", attempt, Level.DEBUG)).as("attempt %d", attempt)
                        .singleElement().satisfies(line -> assertThat(line.getThrowableProxy()).isNotNull());
            }
        });
    }

    @Test
    void aBugLogsItsStackTraceAtTheFirstAttemptOnlyAndOneLineAtTheOthers() {
        server.create(new V1ConfigMap().metadata(new V1ObjectMeta().namespace("default").name("buggy")));

        JsonObject failing = awaitFailing("default/buggy", 3);
        assertThat(failing.get("lastError").getAsString()).isEqualTo(BUG);

        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            assertThat(lines("default/buggy", 1, Level.WARN)).singleElement().satisfies(line -> {
                assertThat(line.getThrowableProxy()).as("the stack trace").isNotNull();
                assertThat(line.getThrowableProxy().getClassName()).isEqualTo(IllegalStateException.class.getName());
            });
            assertThat(lines("default/buggy", 1, Level.DEBUG)).isEmpty();
            for (int attempt = 2; attempt <= 3; attempt++) {
                assertThat(lines("default/buggy", attempt, Level.WARN)).as("attempt %d", attempt).singleElement()
                        .satisfies(line -> {
                            assertThat(line.getThrowableProxy()).as("a stack trace").isNull();
                            assertThat(line.getFormattedMessage()).endsWith(": " + BUG);
                        });
                assertThat(lines("default/buggy", attempt, Level.DEBUG)).as("attempt %d", attempt)
                        .singleElement().satisfies(line -> assertThat(line.getThrowableProxy()).isNotNull());
            }
        });
    }

    @Test
    void aThrottledWriteShowsTheServersWaitAndIsCounted() {
        Http http = new Http(port);
        await().until(() -> server.openWatches() > 0); // so that the next request is the reconcile's write
        server.throttle(1, Duration.ofSeconds(5));
        server.create(new V1ConfigMap().metadata(new V1ObjectMeta().namespace("default").name("throttled")));

        JsonObject failing = awaitFailing("default/throttled", 1);
        assertThat(failing.get("retryAfter").getAsString()).isEqualTo("PT5S");
        assertThat(failing.get("lastError").getAsString()).startsWith("patch secrets/default/throttled-copy: HTTP 429");
        JsonObject counted = http.get("/actuator/metrics/watchkeeper.api.retry.after").json().getAsJsonObject();
        assertThat(counted.getAsJsonArray("measurements").get(0).getAsJsonObject().get("value").getAsDouble())
                .isGreaterThanOrEqualTo(1);
        assertThat(http.get("/actuator/metrics/watchkeeper.api.requests.held").json().getAsJsonObject()
                .getAsJsonArray("measurements").get(0).getAsJsonObject().get("value").getAsDouble()).isZero();
    }

    /** The key's entry in the endpoint's {@code failingKeys} once it failed {@code attempts} times or more. */
    private JsonObject awaitFailing(String key, int attempts) {
        Http http = new Http(port);
        return await().atMost(Duration.ofSeconds(10)).until(() -> {
            for (JsonElement entry : http.get("/actuator/watchkeeper/copier").json().getAsJsonObject()
                    .getAsJsonArray("failingKeys")) {
                if (entry.getAsJsonObject().get("key").getAsString().equals(key)) {
                    return entry.getAsJsonObject();
                }
            }
            return null;
        }, entry -> entry != null && entry.get("attempts").getAsInt() >= attempts);
    }

    /** The reconciler's log lines at {@code level} about {@code key}'s attempt {@code attempt}. */
    private List<ILoggingEvent> lines(String key, int attempt, Level level) {
        String about = "reconcile of " + key + " failed (attempt " + attempt + ")";
        List<ILoggingEvent> all;
        synchronized (logged) { // the appender appends under its own lock
            all = List.copyOf(logged.list);
        }
        return all.stream().filter(line -> line.getLevel() == level
                && line.getFormattedMessage().contains(about)).toList();
    }

    @SpringBootApplication
    static class App {

        /** Copies each ConfigMap's data into a Secret; one ConfigMap trips over a bug. */
        @Reconciler(name = "copier", namespace = "default")
        void reconcile(V1ConfigMap configMap, ReconcileContext context) throws ApiException {
            String name = configMap.getMetadata().getName();
            if (name.equals("buggy")) {
                throw new IllegalStateException("a bug in the reconcile");
            }
            context.apply(new V1Secret().metadata(new V1ObjectMeta().namespace("default").name(name + "-copy"))
                    .stringData(Map.of("copied", "yes")));
        }
    }
}
