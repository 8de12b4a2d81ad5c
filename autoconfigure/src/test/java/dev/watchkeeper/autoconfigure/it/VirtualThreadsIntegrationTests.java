package dev.watchkeeper.autoconfigure.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.watchkeeper.annotation.Reconciler;
import dev.watchkeeper.annotation.WatchListener;
import dev.watchkeeper.autoconfigure.KubernetesConnectionDetails;
import dev.watchkeeper.autoconfigure.LeadershipEvent;
import dev.watchkeeper.internal.registry.WatchkeeperRegistry;
import dev.watchkeeper.test.apiserver.InMemoryApiServer;
import dev.watchkeeper.watch.WatchEvent;
import dev.watchkeeper.watch.WatcherPhase;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.event.EventListener;

/**
 * With {@code spring.threads.virtual.enabled=true} every Watchkeeper thread the application's code runs on — a
 * reconcile worker, a watch listener, the leader elector — is virtual; a run through start, reconciles, a rewatch
 * of every watcher and shutdown records no {@code jdk.VirtualThreadPinned} event in JFR (no carrier thread held
 * while a virtual thread blocks) but for class loading, which pins on Java 25 whatever the code; and closing the
 * context stops everything. Java 21+ only: tagged {@code java25},
 * which the default test run excludes and {@code .ci/run} runs on the Temurin 25 JDK.
 */
@Tag("java25")
class VirtualThreadsIntegrationTests {

    private static final int OBJECTS = 20;

    private final InMemoryApiServer server = new InMemoryApiServer().start();

    @AfterEach
    void stopServer() {
        server.close();
    }

    @Test
    void everyThreadIsVirtual_noneIsPinned_andCloseStopsThemAll(@TempDir Path dir) throws Exception {
        for (int i = 0; i < OBJECTS; i++) {
            server.create(new V1ConfigMap().metadata(new V1ObjectMeta().namespace("default").name("cm-" + i)));
        }
        // Java 25 still pins a virtual thread while it loads or initializes a class, once per class: a first run
        // loads nearly all, and a pin inside a class loader (another thread loading the same class) is not counted
        run("first");
        Path jfr = dir.resolve("pinning.jfr");
        try (Recording recording = new Recording()) {
            // every pin, however short: a virtual thread that blocks pinned holds a carrier for as long as it waits
            recording.enable("jdk.VirtualThreadPinned").withThreshold(Duration.ZERO).withStackTrace();
            recording.start();
            run("recorded");
            recording.stop();
            recording.dump(jfr);
        }
        List<RecordedEvent> pinned = RecordingFile.readAllEvents(jfr).stream()
                .filter(event -> event.getEventType().getName().equals("jdk.VirtualThreadPinned"))
                .filter(event -> !loadingAClass(event)).toList();
        assertThat(pinned).as(() -> pinned.stream().map(VirtualThreadsIntegrationTests::describe)
                .collect(Collectors.joining("\n"))).isEmpty();
    }

    /** Start, reconciles, a rewatch of every watcher, a new object, and close, asserting threads and shutdown. */
    private void run(String round) {
        ConfigurableApplicationContext context = start();
        App app = context.getBean(App.class);
        ApiClient client = context.getBean(ApiClient.class);
        WatchkeeperRegistry registry = context.getBean(WatchkeeperRegistry.class);
        await().atMost(Duration.ofSeconds(20)).until(() -> app.reconciled.size() >= OBJECTS
                && app.heard.size() >= OBJECTS && app.leading.size() == 1 && server.openWatches() == 2);
        server.closeWatches(); // every watcher resumes: a second round of blocking HTTP calls
        server.create(new V1ConfigMap().metadata(new V1ObjectMeta().namespace("default").name(round)));
        await().atMost(Duration.ofSeconds(20)).until(() -> app.reconciled.containsKey(round)
                && server.openWatches() == 2);
        context.close();

        assertThat(app.reconciled.values()).as("reconcile workers").containsOnly(true);
        assertThat(app.heard.values()).as("watch listener").containsOnly(true);
        assertThat(app.leading).as("leader elector").containsOnly(true);
        assertThat(registry.watchers()).allSatisfy(w -> assertThat(w.snapshot().phase())
                .isEqualTo(WatcherPhase.STOPPED));
        assertThat(registry.reconcilers()).noneMatch(dev.watchkeeper.internal.reconcile.Reconciler::isRunning);
        assertThat(client.getHttpClient().dispatcher().runningCallsCount()).isZero();
    }

    private ConfigurableApplicationContext start() {
        return new SpringApplicationBuilder(App.class)
                .web(WebApplicationType.NONE)
                .initializers(context -> context.getBeanFactory().registerSingleton("connection",
                        (KubernetesConnectionDetails) server::url))
                .properties("spring.threads.virtual.enabled=true",
                        "watchkeeper.reconcile.shutdown-grace=2s",
                        "watchkeeper.leader-election.enabled=true",
                        "watchkeeper.leader-election.lease-namespace=default",
                        "watchkeeper.watchers.all-configmaps.resource=v1/configmaps")
                .run();
    }

    private static boolean isVirtual(Thread thread) {
        try { // Thread.isVirtual is Java 21's; the tests compile for 17
            return (boolean) Thread.class.getMethod("isVirtual").invoke(thread);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("needs Java 21+", e);
        }
    }

    private static boolean loadingAClass(RecordedEvent event) {
        return event.getStackTrace() != null && event.getStackTrace().getFrames().stream()
                .anyMatch(frame -> frame.getMethod().getType().getName().equals("java.lang.ClassLoader")
                        && frame.getMethod().getName().equals("loadClass"));
    }

    private static String describe(RecordedEvent event) {
        return event.getDuration() + " on " + event.getThread("eventThread").getJavaName() + "\n"
                + (event.getStackTrace() == null ? "  (no stack)" : event.getStackTrace().getFrames().stream()
                        .map(frame -> "  at " + frame.getMethod().getType().getName() + "."
                                + frame.getMethod().getName() + ":" + frame.getLineNumber())
                        .collect(Collectors.joining("\n")));
    }

    @SpringBootApplication
    static class App {

        /** Object name → whether it ran on a virtual thread, per kind of callback. */
        final Map<String, Boolean> reconciled = new ConcurrentHashMap<>();
        final Map<String, Boolean> heard = new ConcurrentHashMap<>();
        final List<Boolean> leading = new CopyOnWriteArrayList<>();

        @Reconciler(name = "virtual", namespace = "default")
        void reconcile(V1ConfigMap configMap) {
            reconciled.put(configMap.getMetadata().getName(), isVirtual(Thread.currentThread()));
        }

        @WatchListener("all-configmaps")
        void onApply(WatchEvent.InitApply<V1ConfigMap> apply) {
            heard.put(apply.object().getMetadata().getName(), isVirtual(Thread.currentThread()));
        }

        @EventListener
        void onLeading(LeadershipEvent.Acquired acquired) {
            leading.add(isVirtual(Thread.currentThread()));
        }
    }
}
