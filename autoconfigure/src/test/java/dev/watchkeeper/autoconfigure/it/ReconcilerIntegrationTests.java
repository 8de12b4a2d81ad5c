package dev.watchkeeper.autoconfigure.it;

import static dev.watchkeeper.test.stub.Replies.cm;
import static dev.watchkeeper.test.stub.Replies.events;
import static dev.watchkeeper.test.stub.Replies.modified;
import static dev.watchkeeper.test.stub.Replies.page;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.watchkeeper.annotation.Reconciler;
import dev.watchkeeper.reconcile.ReconcilerSnapshot;
import dev.watchkeeper.reconcile.ReconcileContext;
import dev.watchkeeper.reconcile.ReconcileResult;
import dev.watchkeeper.internal.registry.WatchkeeperRegistry;
import dev.watchkeeper.test.boot.AutoConfigureKubeApiStub;
import dev.watchkeeper.test.boot.KubeApiStubCustomizer;
import dev.watchkeeper.test.stub.WatchLine;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Lazy;
import org.springframework.stereotype.Component;
import org.springframework.test.annotation.DirtiesContext;

/**
 * A {@code @Reconciler} bean in a real Spring Boot application against the scripted API stub over HTTP.
 */
@SpringBootTest(classes = {ReconcilerIntegrationTests.App.class, ReconcilerIntegrationTests.Script.class},
        properties = "watchkeeper.reconcilers.cms.concurrency=3")
@AutoConfigureKubeApiStub
@DirtiesContext
class ReconcilerIntegrationTests {

    static final int KEYS = 30;
    static final int UPDATES = 5;

    /** The API stub's script, written before the application's first call. */
    @TestConfiguration
    static class Script {

        @Bean
        KubeApiStubCustomizer script() {
            return stub -> {
                List<V1ConfigMap> items = new ArrayList<>();
                for (int i = 0; i < KEYS; i++) {
                    items.add(cm(name(i), "1"));
                }
                items.add(cm("fail-me", "1"));
                items.add(cm("requeue-me", "1"));
                List<WatchLine> changes = new ArrayList<>();
                int rv = 2;
                for (int round = 0; round < UPDATES; round++) {
                    for (int i = 0; i < KEYS; i++) {
                        changes.add(modified(cm(name(i), Integer.toString(rv++))));
                    }
                }
                stub.on("/api/v1/namespaces/default/configmaps")
                        .list(page(items.toArray(V1ConfigMap[]::new)).resourceVersion("1"))
                        .watch(events(changes.toArray(WatchLine[]::new)).thenStayOpen());
            };
        }
    }

    @Autowired
    Work work;

    @Autowired
    WatchkeeperRegistry registry;

    @Test
    void everyObjectIsReconciledAndEveryChangeIsSeen() {
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            for (int i = 0; i < KEYS; i++) {
                assertThat(work.lastVersion.get(name(i))).as(name(i)).isEqualTo(
                        Integer.toString(2 + (UPDATES - 1) * KEYS + i));
            }
        });
        assertThat(work.calls.keySet()).contains("fail-me", "requeue-me");
    }

    @Test
    void concurrencyIsNeverExceededAndNoKeyRunsTwiceAtOnce() {
        await().atMost(Duration.ofSeconds(20)).until(() -> work.lastVersion.size() >= KEYS);
        assertThat(work.maxInFlight.get()).isBetween(1, 3);
        assertThat(work.overlaps.get()).isZero();
        assertThat(registry.reconciler("cms")).get().extracting(c -> c.snapshot().concurrency()).isEqualTo(3);
    }

    @Test
    void aFailingObjectIsRetriedWithGrowingPerObjectDelays() {
        await().atMost(Duration.ofSeconds(20)).until(() -> work.failMeDelays.size() >= 4);
        assertThat(work.failMeDelays).containsExactly(Duration.ofMillis(5), Duration.ofMillis(10),
                Duration.ofMillis(20), Duration.ofMillis(40));
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(snapshot().failingKeys())
                .extracting(ReconcilerSnapshot.FailingKey::key).doesNotContain("default/fail-me"));
    }

    @Test
    void requeueAfterRunsTheObjectAgainNoSoonerThanAsked() {
        await().atMost(Duration.ofSeconds(20)).until(() -> work.requeueTimes.size() >= 2);
        assertThat(Duration.between(work.requeueTimes.get(0), work.requeueTimes.get(1)))
                .isGreaterThanOrEqualTo(Work.REQUEUE);
    }

    private ReconcilerSnapshot snapshot() {
        return registry.reconciler("cms").orElseThrow().snapshot();
    }

    private static String name(int i) {
        return String.format("c%02d", i);
    }

    @SpringBootApplication
    static class App {

        @Bean
        Work work(@Lazy WatchkeeperRegistry registry) {
            return new Work(registry);
        }
    }

    /** The reconciler: counts, checks overlap, fails one object four times, requeues another once. */
    @Component
    static class Work {

        static final Duration REQUEUE = Duration.ofMillis(300);

        final WatchkeeperRegistry registry;
        final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
        final Map<String, String> lastVersion = new ConcurrentHashMap<>();
        final Set<String> running = ConcurrentHashMap.newKeySet();
        final AtomicInteger inFlight = new AtomicInteger();
        final AtomicInteger maxInFlight = new AtomicInteger();
        final AtomicInteger overlaps = new AtomicInteger();
        final List<Duration> failMeDelays = new CopyOnWriteArrayList<>();
        final List<Instant> requeueTimes = new CopyOnWriteArrayList<>();

        Work(WatchkeeperRegistry registry) {
            this.registry = registry;
        }

        @Reconciler(name = "cms", namespace = "${test.namespace:default}")
        ReconcileResult reconcile(V1ConfigMap configMap, ReconcileContext context) {
            String name = configMap.getMetadata().getName();
            if (!running.add(name)) {
                overlaps.incrementAndGet();
            }
            maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            try {
                calls.computeIfAbsent(name, k -> new AtomicInteger()).incrementAndGet();
                callTheApi(); // some work, so overlaps could happen
                if (name.equals("fail-me")) {
                    return failFourTimes(context);
                }
                if (name.equals("requeue-me")) {
                    requeueTimes.add(Instant.now());
                    return requeueTimes.size() == 1 ? ReconcileResult.requeueAfter(REQUEUE) : ReconcileResult.done();
                }
                lastVersion.put(name, configMap.getMetadata().getResourceVersion());
                return ReconcileResult.done();
            } finally {
                inFlight.decrementAndGet();
                running.remove(name);
            }
        }

        /** The simulated work: a call answered 2 ms later, on the answering thread; the reconcile waits for it. */
        private static void callTheApi() {
            CompletableFuture.runAsync(() -> { }, CompletableFuture.delayedExecutor(2, TimeUnit.MILLISECONDS)).join();
        }

        private ReconcileResult failFourTimes(ReconcileContext context) {
            if (context.attempt() > 1) {
                registry.reconciler("cms").orElseThrow().snapshot().failingKeys().stream()
                        .filter(k -> k.key().equals("default/fail-me")).findFirst()
                        .ifPresent(k -> failMeDelays.add(k.delay()));
            }
            if (context.attempt() <= 4) {
                throw new IllegalStateException("attempt " + context.attempt() + " fails on purpose");
            }
            return ReconcileResult.done();
        }
    }
}
