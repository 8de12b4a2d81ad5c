package dev.watchkeeper.test.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import dev.watchkeeper.internal.backoff.BackOffSettings;
import dev.watchkeeper.internal.backoff.TimeSource;
import dev.watchkeeper.internal.reconcile.Reconciler;
import dev.watchkeeper.internal.reconcile.ReconcilerSettings;
import dev.watchkeeper.internal.resource.ResourceType;
import dev.watchkeeper.internal.store.LabelSelector;
import dev.watchkeeper.test.VirtualTime;
import dev.watchkeeper.test.apiserver.InMemoryApiServer;
import dev.watchkeeper.internal.watch.InitialListStrategy;
import dev.watchkeeper.internal.watch.WatchOptions;
import dev.watchkeeper.internal.watch.WatchScope;
import dev.watchkeeper.internal.watch.Watcher;
import dev.watchkeeper.internal.watch.http.HttpWatchApi;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Randomized fault schedules that must converge, on the in-memory API server: per seed, a history of ConfigMap
 * changes runs against a watcher with a label selector and a controller while a schedule drawn from the seed
 * injects every {@link FaultKind}; afterwards the store must equal the server, every live object must be reconciled
 * at its final version, and the request count must stay on the backoff curve. Backoff runs on a {@link VirtualTime},
 * so an outage of minutes passes in milliseconds. See docs/testing.md for seeds and replays.
 */
class InMemoryChaosTest {

    private static final ChaosSeeds SEEDS = new ChaosSeeds(InMemoryChaosTest.class.getSimpleName());
    private static final List<String> NAMESPACES = List.of("ns-0", "ns-1", "ns-2", "ns-3");
    private static final Duration WATCH_TIMEOUT = Duration.ofSeconds(1);
    private static final Duration IDLE_MARGIN = Duration.ofMillis(500);
    private static final FaultSchedule.Limits LIMITS = new FaultSchedule.Limits(10, 20, Duration.ofMinutes(2),
            Duration.ofMinutes(5), WATCH_TIMEOUT.plus(IDLE_MARGIN).plusMillis(500), 0.3, 200, Duration.ofMillis(1));
    private static final BackOffSettings BACK_OFF = BackOffSettings.clientGo();
    private static final Duration WAIT = Duration.ofSeconds(60);

    @TestFactory
    Stream<DynamicTest> convergesThroughRandomFaults() {
        return SEEDS.tests(50, InMemoryChaosTest::run);
    }

    @AfterAll
    static void summary() {
        System.out.println(SEEDS.summary());
    }

    private static ChaosSeeds.SeedRun run(long seed) throws Exception {
        Random random = new Random(seed);
        History history = History.draw(random, NAMESPACES, 200 + random.nextInt(200), 1500 + random.nextInt(1000),
                "seed-" + seed);
        FaultSchedule schedule = FaultSchedule.draw(random, history.initial(), history.changes().size(), LIMITS);
        InitialListStrategy strategy = InitialListStrategy.values()[random.nextInt(InitialListStrategy.values().length)];
        WatchOptions options = WatchOptions.defaults().withInitialList(strategy).withPageSize(50 + random.nextInt(200))
                .withTimeout(WATCH_TIMEOUT).withIdleMargin(IDLE_MARGIN);
        Set<Thread> baseline = EndState.threads();
        VirtualTime time = new VirtualTime();
        InMemoryApiServer server = InMemoryApiServer.builder().outageClock(time.clock())
                .bookmarkInterval(Duration.ofMillis(200)).build().start();
        History.Writer writer = writer(server);
        history.writeInitial(writer);
        Watcher<V1ConfigMap> watcher = HttpWatchApi.watcher(server.apiClient(), ResourceType.of(V1ConfigMap.class))
                .scope(WatchScope.allNamespaces().withLabelSelector(history.selector()))
                .options(options)
                .backOff(BACK_OFF)
                .timeSource(time)
                .build();
        ReconcileLog log = new ReconcileLog(seed);
        watcher.addListener(log);
        // Real time for the controller: its idle queue would otherwise wait a virtual year at once.
        Reconciler<V1ConfigMap> loop = Reconciler.builder("chaos", watcher, log)
                .settings(ReconcilerSettings.defaults().withConcurrency(4))
                .timeSource(TimeSource.system())
                .build();
        long bound;
        try {
            long started = System.nanoTime();
            watcher.start();
            loop.start();
            history.replay(schedule, writer, injector(server), () -> LockSupport.parkNanos(300_000));
            EndState.assertConverged(watcher, loop, log, () -> selected(server, history), WAIT);
            bound = schedule.requestBound(history, options, Duration.ofNanos(System.nanoTime() - started), BACK_OFF);
            assertThat((long) server.requestCount()).as("requests, for faults " + schedule.faults())
                    .isLessThanOrEqualTo(bound);
        } finally {
            loop.close(Duration.ofSeconds(5));
            watcher.close();
            server.close();
        }
        EndState.awaitThreadsBackTo(baseline, Duration.ofSeconds(10));
        return new ChaosSeeds.SeedRun(schedule, history.objects(), history.changes().size(), server.requestCount(),
                bound, log.watcherErrors());
    }

    private static FaultInjector injector(InMemoryApiServer server) {
        return new FaultInjector() {
            @Override
            public void inject(Fault fault) {
                switch (fault.kind()) {
                    case INTERNAL_ERROR -> server.failRequests(fault.requests(), 500);
                    case UNAVAILABLE -> server.failRequests(fault.requests(), 503);
                    case THROTTLED -> server.throttle(fault.requests(), fault.duration());
                    case EXPIRED_MID_STREAM -> server.expireWatches();
                    case EXPIRED_AT_WATCH_START -> server.expireWatchStarts(fault.requests());
                    case COMPACTION -> server.compact();
                    case RESET_MID_STREAM -> server.resetWatches();
                    case TRUNCATED_CHUNK -> server.truncateWatches();
                    case MALFORMED_LINE -> server.sendMalformedLine();
                    case SLOW_BODIES -> server.slowBodies(fault.duration());
                    case IDLE_PAST_TIMEOUT -> server.stallWatches(fault.duration());
                    case OUTAGE -> server.outage(fault.duration());
                }
            }

            @Override
            public void endSlowBodies() {
                server.slowBodies(Duration.ZERO);
            }

            @Override
            public void stopFaults() {
                server.failRequests(0, 500);
                server.throttle(0, Duration.ofSeconds(1));
                server.expireWatchStarts(0);
                server.slowBodies(Duration.ZERO);
                server.endOutage();
            }
        };
    }

    private static List<V1ConfigMap> selected(InMemoryApiServer server, History history) {
        LabelSelector selector = LabelSelector.parse(history.selector());
        return server.list(V1ConfigMap.class, null).stream()
                .filter(c -> selector.matches(c.getMetadata().getLabels())).toList();
    }

    private static History.Writer writer(InMemoryApiServer server) {
        return new History.Writer() {
            @Override
            public void create(V1ConfigMap object) {
                server.create(object);
            }

            @Override
            public void replace(V1ConfigMap object) {
                server.update(object);
            }

            @Override
            public void delete(String namespace, String name) {
                server.delete("", "configmaps", namespace, name);
            }
        };
    }
}
