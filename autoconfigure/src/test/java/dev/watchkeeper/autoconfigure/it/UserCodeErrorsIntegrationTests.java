package dev.watchkeeper.autoconfigure.it;

import static dev.watchkeeper.test.stub.Replies.added;
import static dev.watchkeeper.test.stub.Replies.cm;
import static dev.watchkeeper.test.stub.Replies.events;
import static dev.watchkeeper.test.stub.Replies.page;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.gson.JsonObject;
import dev.watchkeeper.annotation.Reconciler;
import dev.watchkeeper.test.boot.AutoConfigureKubeApiStub;
import dev.watchkeeper.test.boot.KubeApiStubCustomizer;
import dev.watchkeeper.watch.WatchEvent;
import dev.watchkeeper.internal.watch.Watcher;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.test.annotation.DirtiesContext;

/**
 * A fatal error thrown by user code (docs/semantics.md §10) is visible over HTTP: a watcher whose listener threw an
 * {@code OutOfMemoryError} is {@code STOPPED} with the error named in {@code /actuator/watchkeeper} and in health
 * ({@code DOWN}); a reconciler whose reconcile threw one is no longer ready and names it on the key.
 */
@SpringBootTest(classes = {UserCodeErrorsIntegrationTests.App.class, UserCodeErrorsIntegrationTests.Script.class},
        webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = {
                "management.endpoints.web.exposure.include=health,watchkeeper",
                "management.endpoint.health.show-details=always",
                "watchkeeper.watchers.cms.resource=v1/configmaps"})
@AutoConfigureKubeApiStub
@DirtiesContext
class UserCodeErrorsIntegrationTests {

    static final String LISTENER_ERROR = "a listener threw java.lang.OutOfMemoryError on Apply; the watcher stopped";

    /** The errors thrown on to the threads' uncaught-exception handler, by thread name. */
    static final Map<String, Throwable> UNCAUGHT = new ConcurrentHashMap<>();
    private static Thread.UncaughtExceptionHandler surefiresHandler;

    @LocalServerPort
    int port;

    @Autowired
    App app;

    @TestConfiguration
    static class Script {

        @Bean
        KubeApiStubCustomizer script() {
            return stub -> {
                stub.on("/api/v1/configmaps").list(page(cm("a", "5")).resourceVersion("5"))
                        .watch(events(added(cm("poison", "6"))).thenStayOpen());
                stub.on("/api/v1/namespaces/default/configmaps").list(page(cm("b", "5")).resourceVersion("5"))
                        .watch(events().thenStayOpen());
            };
        }
    }

    /**
     * Before the context starts: the fatal errors end threads of the application (and the waits below leave the
     * handler alone, or Awaitility would throw them in the test's thread, where JUnit aborts the run).
     */
    @BeforeAll
    static void catchWhatTheThreadsThrowOn() {
        surefiresHandler = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler((thread, error) -> UNCAUGHT.put(thread.getName(), error));
    }

    @AfterAll
    static void restoreTheHandler() {
        Thread.setDefaultUncaughtExceptionHandler(surefiresHandler);
    }

    @Test
    void aWatcherStoppedByAFatalListenerErrorShowsItInTheEndpointAndHealth() {
        Http http = new Http(port);

        JsonObject watcher = await().dontCatchUncaughtExceptions().atMost(Duration.ofSeconds(10)).until(
                () -> http.get("/actuator/watchkeeper/cms").json().getAsJsonObject(),
                w -> w.get("phase").getAsString().equals("STOPPED"));

        assertThat(watcher.get("synced").getAsBoolean()).isFalse();
        assertThat(watcher.getAsJsonObject("lastError").get("kind").getAsString()).isEqualTo("WatchFailed");
        assertThat(watcher.getAsJsonObject("lastError").get("message").getAsString()).isEqualTo(LISTENER_ERROR);
        Http.Response health = http.get("/actuator/health");
        assertThat(health.status()).as(health.body()).isEqualTo(503);
        JsonObject indicator = health.json().getAsJsonObject().getAsJsonObject("components")
                .getAsJsonObject("watchkeeper");
        assertThat(indicator.get("status").getAsString()).isEqualTo("DOWN");
        JsonObject details = indicator.getAsJsonObject("details").getAsJsonObject("watchers").getAsJsonObject("cms");
        assertThat(details.get("phase").getAsString()).isEqualTo("STOPPED");
        assertThat(details.get("lastError").getAsString()).isEqualTo(LISTENER_ERROR);
        assertThat(UNCAUGHT.get("watchkeeper-cms")).as("thrown on").isInstanceOf(OutOfMemoryError.class);
    }

    @Test
    void aReconcilerStoppedByAFatalErrorShowsItInTheEndpoint() {
        Http http = new Http(port);

        JsonObject reconciler = await().dontCatchUncaughtExceptions().atMost(Duration.ofSeconds(10)).until(
                () -> http.get("/actuator/watchkeeper/out-of-memory").json().getAsJsonObject(),
                r -> r.get("failingKeysTotal").getAsInt() == 1 && !r.get("ready").getAsBoolean());

        assertThat(reconciler.get("lastResult").getAsString()).isEqualTo("error");
        assertThat(reconciler.getAsJsonArray("failingKeys").get(0).getAsJsonObject().get("lastError").getAsString())
                .contains("OutOfMemoryError");
        assertThat(app.reconciles).hasValue(1);
        assertThat(UNCAUGHT).as("thrown on the worker that ran the reconcile").hasEntrySatisfying(
                UNCAUGHT.keySet().stream().filter(name -> name.startsWith("watchkeeper-out-of-memory-worker-"))
                        .findFirst().orElse("no worker of out-of-memory threw"),
                thrown -> assertThat(thrown).isInstanceOf(OutOfMemoryError.class));
    }

    @SpringBootApplication
    static class App {

        final AtomicInteger reconciles = new AtomicInteger();

        /** A listener on the watcher's own thread that cannot cope with one object. */
        @Bean
        InitializingBean poisonedListener(@Qualifier("cms") Watcher<V1ConfigMap> cms) {
            return () -> cms.addListener(event -> {
                if (event instanceof WatchEvent.Apply<V1ConfigMap> apply
                        && apply.object().getMetadata().getName().equals("poison")) {
                    throw new OutOfMemoryError("simulated");
                }
            });
        }

        @Reconciler(name = "out-of-memory", namespace = "default")
        void reconcile(V1ConfigMap configMap) {
            reconciles.incrementAndGet();
            throw new OutOfMemoryError("simulated");
        }
    }
}
