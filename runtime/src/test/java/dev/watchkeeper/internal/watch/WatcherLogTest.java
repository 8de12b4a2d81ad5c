package dev.watchkeeper.internal.watch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.watchkeeper.internal.backoff.BackOffSettings;
import dev.watchkeeper.internal.backoff.TimeSource;
import dev.watchkeeper.reconcile.ManualTime;
import dev.watchkeeper.internal.resource.ResolvedResource;
import dev.watchkeeper.internal.resource.ResourceType;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.retry.backoff.NoBackOffPolicy;

/**
 * What a watcher logs (docs/semantics.md §7): each failure once — at WARN with its delay when it backs off, at INFO
 * when it is retried at once — and the recovery once, at INFO, with the number of failures and how long they lasted.
 */
class WatcherLogTest {

    private static final String SERVER_ERROR = "server error 503 on list v1/configmaps";
    /** No jitter, so the delays are exact: 1 s, 2 s, 4 s … */
    private static final BackOffSettings NO_JITTER = new BackOffSettings(Duration.ofSeconds(1), 2.0,
            Duration.ofSeconds(30), 0.0, Duration.ofMinutes(2), null);

    private final Logger watcherLog = (Logger) LoggerFactory.getLogger(Watcher.class);
    private final ListAppender<ILoggingEvent> logged = new ListAppender<>();
    private final ScriptedServer server = new ScriptedServer();
    private Watcher<V1ConfigMap> watcher;

    @BeforeEach
    void captureLogs() {
        logged.start();
        watcherLog.addAppender(logged);
    }

    @AfterEach
    void close() {
        if (watcher != null) {
            watcher.close();
        }
        watcherLog.detachAppender(logged);
    }

    @Test
    void eachFailureIsLoggedOnceWithItsDelayAndTheRecoveryOnce() {
        server.lists.add(new ApiFailure(503, SERVER_ERROR));
        server.lists.add(new ApiFailure(503, SERVER_ERROR));

        start();
        await().until(() -> server.watches.get() == 1);

        assertThat(lines()).containsExactly(
                "WARN watcher cms: " + SERVER_ERROR + "; backing off for 1000 ms",
                "WARN watcher cms: " + SERVER_ERROR + "; backing off for 2000 ms",
                "INFO watcher cms recovered after 2 failures in 3.0 s");
    }

    @Test
    void oneFailureIsOneFailure() {
        server.lists.add(new ApiFailure(503, SERVER_ERROR));

        start();
        await().until(() -> server.watches.get() == 1);

        assertThat(lines()).containsExactly(
                "WARN watcher cms: " + SERVER_ERROR + "; backing off for 1000 ms",
                "INFO watcher cms recovered after 1 failure in 1.0 s");
    }

    @Test
    void aFailureRetriedAtOnceIsLoggedOnceAtInfoWithoutARecovery() {
        server.firstWatch.add(new WireEvent.ErrorStatus<>(410, "Expired", "too old resource version: 5 (7)"));

        start();
        await().until(() -> server.watches.get() == 2);

        assertThat(lines()).containsExactly(
                "INFO watcher cms: resourceVersion 5 of v1/configmaps is too old (410 Expired); relisting");
    }

    @Test
    void aFailureIsLoggedOnceWhenAPolicyOfItsOwnSetsTheDelay() {
        server.lists.add(new ApiFailure(503, SERVER_ERROR));

        start(Watcher.builder(server, ResourceType.of(V1ConfigMap.class)).backOffPolicy(new NoBackOffPolicy()));
        await().until(() -> server.watches.get() == 1);

        assertThat(lines()).containsExactly(
                "WARN watcher cms: " + SERVER_ERROR + "; backing off as its own policy decides",
                "INFO watcher cms recovered after 1 failure in 0.0 s");
    }

    private void start() {
        start(Watcher.builder(server, ResourceType.of(V1ConfigMap.class)).backOff(NO_JITTER));
    }

    private void start(WatcherBuilder<V1ConfigMap> builder) {
        watcher = builder.name("cms").timeSource(new SkippingTime()).build();
        watcher.start();
    }

    private List<String> lines() {
        return logged.list.stream().map(e -> e.getLevel() + " " + e.getFormattedMessage()).toList();
    }

    /**
     * Lists answer from {@link #lists} (a failure or a page), then with an empty page at version 5; the first
     * watch sends {@link #firstWatch}, every watch then stays open and silent until the watcher closes.
     */
    private static final class ScriptedServer implements WatchApi<V1ConfigMap> {

        final Deque<ApiFailure> lists = new ArrayDeque<>();
        final Deque<WireEvent<V1ConfigMap>> firstWatch = new ArrayDeque<>();
        final AtomicInteger watches = new AtomicInteger();
        private final CountDownLatch aborted = new CountDownLatch(1);

        @Override
        public ResolvedResource resolve() {
            return ScriptedWatchApi.CONFIG_MAPS;
        }

        @Override
        public ListPage<V1ConfigMap> list(ResolvedResource resource, ListRequest request) throws ApiFailure {
            ApiFailure failure = lists.poll();
            if (failure != null) {
                throw failure;
            }
            return new ListPage<>(List.of(), "5", null, List.of());
        }

        @Override
        public EventStream<V1ConfigMap> watch(ResolvedResource resource, WatchRequest request) {
            Deque<WireEvent<V1ConfigMap>> events = watches.incrementAndGet() == 1 ? firstWatch : new ArrayDeque<>();
            return new EventStream<>() {
                @Override
                public WireEvent<V1ConfigMap> next() throws IOException {
                    WireEvent<V1ConfigMap> event = events.poll();
                    if (event != null) {
                        return event;
                    }
                    try {
                        aborted.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    throw new IOException("closed");
                }

                @Override
                public void clearDeadline() {
                }

                @Override
                public void close() {
                }
            };
        }

        @Override
        public void abort() {
            aborted.countDown();
        }
    }

    /** Virtual time on a {@link ManualTime}: a wait returns at once and moves the clock by its delay. */
    private static final class SkippingTime implements TimeSource {

        private final ManualTime time = new ManualTime();

        @Override
        public Clock clock() {
            return time.clock();
        }

        @Override
        public void await(Object monitor, Duration delay, BooleanSupplier wake) {
            if (!wake.getAsBoolean()) {
                time.advance(delay);
            }
        }
    }
}
