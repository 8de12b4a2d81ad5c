package dev.watchkeeper.autoconfigure.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.watchkeeper.annotation.Reconciler;
import dev.watchkeeper.annotation.WatchListener;
import dev.watchkeeper.internal.registry.WatchkeeperRegistry;
import dev.watchkeeper.test.apiserver.InMemoryApiServer;
import dev.watchkeeper.watch.WatchEvent;
import dev.watchkeeper.watch.WatcherPhase;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Closing the application context leaves nothing behind: every watcher, reconciler worker, {@code @WatchListener}
 * and the leader elector has stopped within the shutdown grace, no thread named {@code watchkeeper-…} is alive, and
 * the HTTP calls that were open — watches, and a list the server is slow to answer — are cancelled: the client has
 * no call running and the server no watch open.
 */
class ShutdownIntegrationTests {

    private static final String PREFIX = "watchkeeper-";
    private static final Duration GRACE = Duration.ofSeconds(2);

    private final InMemoryApiServer server = new InMemoryApiServer().start();
    private final ApiClient client = server.apiClient();

    @BeforeEach
    void objects() {
        for (int i = 0; i < 5; i++) {
            server.create(new V1ConfigMap().metadata(new V1ObjectMeta().namespace("default").name("cm-" + i)));
        }
    }

    @AfterEach
    void stopServer() {
        server.close();
    }

    @Test
    void closingTheContextStopsEverythingAndCancelsOpenWatches() {
        assertThat(watchkeeperThreads()).as("none before").isEmpty();
        ConfigurableApplicationContext context = start(true);
        WatchkeeperRegistry registry = context.getBean(WatchkeeperRegistry.class);
        App app = context.getBean(App.class);
        await().atMost(Duration.ofSeconds(20)).until(() -> app.reconciles.get() >= 5 && app.heard.get() >= 5
                && server.openWatches() == 3);
        assertThat(watchkeeperThreads()).as("watchers, worker, listener, elector").hasSizeGreaterThanOrEqualTo(5);

        long closing = System.nanoTime();
        context.close();
        Duration took = Duration.ofNanos(System.nanoTime() - closing);

        assertThat(took).isLessThan(GRACE);
        assertThat(watchkeeperThreads()).isEmpty();
        assertThat(registry.watchers()).allSatisfy(w -> {
            assertThat(w.snapshot().phase()).isEqualTo(WatcherPhase.STOPPED);
            assertThat(w.isRunning()).isFalse();
        });
        assertThat(registry.reconcilers()).noneMatch(dev.watchkeeper.internal.reconcile.Reconciler::isRunning);
        assertThat(client.getHttpClient().dispatcher().runningCallsCount()).isZero();
        // The server notices a client that went away when a write fails: two events for each watch.
        for (int i = 0; i < 2; i++) {
            server.create(new V1ConfigMap().metadata(new V1ObjectMeta().namespace("default").name("after-" + i)));
            server.create(new V1Secret().metadata(new V1ObjectMeta().namespace("default").name("after-" + i)));
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> server.openWatches() == 0);
    }

    /**
     * Without leader election: releasing the Lease on close is a call to the same slow server, which is waited for
     * up to the renew deadline (10 s, docs/semantics.md §14).
     */
    @Test
    void closingTheContextCancelsTheCallsInFlight() {
        ConfigurableApplicationContext context = start(false);
        await().atMost(Duration.ofSeconds(20)).until(() -> server.openWatches() == 3);
        server.delayResponses(Duration.ofSeconds(60));
        server.closeWatches(); // every watcher now waits for the answer to its next call
        await().atMost(Duration.ofSeconds(5))
                .until(() -> client.getHttpClient().dispatcher().runningCallsCount() == 3);

        long closing = System.nanoTime();
        context.close();
        Duration took = Duration.ofNanos(System.nanoTime() - closing);

        assertThat(took).isLessThan(GRACE);
        assertThat(watchkeeperThreads()).isEmpty();
        assertThat(client.getHttpClient().dispatcher().runningCallsCount()).isZero();
    }

    private ConfigurableApplicationContext start(boolean leaderElection) {
        return new SpringApplicationBuilder(App.class)
                .web(WebApplicationType.NONE)
                .initializers(context -> context.getBeanFactory().registerSingleton("apiClient", client))
                .properties("watchkeeper.reconcile.shutdown-grace=" + GRACE.toMillis() + "ms",
                        "watchkeeper.leader-election.enabled=" + leaderElection,
                        "watchkeeper.leader-election.lease-namespace=default",
                        "watchkeeper.watchers.all-configmaps.resource=v1/configmaps")
                .run();
    }

    private static List<String> watchkeeperThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).map(Thread::getName)
                .filter(name -> name.startsWith(PREFIX)).sorted().toList();
    }

    @SpringBootApplication
    static class App {

        final AtomicInteger reconciles = new AtomicInteger();
        final AtomicInteger heard = new AtomicInteger();

        @Reconciler(name = "mirror", namespace = "default", owns = V1Secret.class)
        void reconcile(V1ConfigMap configMap) {
            reconciles.incrementAndGet();
        }

        @WatchListener("all-configmaps")
        void onApply(WatchEvent.InitApply<V1ConfigMap> apply) {
            heard.incrementAndGet();
        }
    }
}
