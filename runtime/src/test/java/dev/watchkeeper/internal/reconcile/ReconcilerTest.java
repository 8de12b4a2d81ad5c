package dev.watchkeeper.internal.reconcile;

import dev.watchkeeper.reconcile.FakeWatchApi;
import dev.watchkeeper.reconcile.ManualTime;
import dev.watchkeeper.reconcile.ReconcileResult;
import dev.watchkeeper.reconcile.ReconcilerSnapshot;
import dev.watchkeeper.reconcile.TerminalReconcileException;
import dev.watchkeeper.reconcile.Trigger;
import static dev.watchkeeper.reconcile.TestObjects.configMap;
import static dev.watchkeeper.reconcile.TestObjects.secretOwnedBy;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.watchkeeper.internal.backoff.JitteredExponentialBackOffPolicy;
import dev.watchkeeper.internal.backoff.JitteredExponentialBackOffPolicy;
import dev.watchkeeper.internal.resource.ResourceType;
import dev.watchkeeper.store.ObjectKey;
import dev.watchkeeper.internal.watch.Watcher;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Secret;
import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.LoggerFactory;

@Timeout(10)
class ReconcilerTest {

    @BeforeAll
    static void pollQuickly() {
        Awaitility.setDefaultPollInterval(Duration.ofMillis(5));
    }

    static final ResourceType<V1ConfigMap> CONFIG_MAPS = ResourceType.of(V1ConfigMap.class).withPlural("configmaps", true);
    static final ResourceType<V1Secret> SECRETS = ResourceType.of(V1Secret.class).withPlural("secrets", true);

    private final FakeWatchApi<V1ConfigMap> configMapApi = new FakeWatchApi<>(CONFIG_MAPS);
    private final Watcher<V1ConfigMap> configMaps = Watcher.builder(configMapApi, CONFIG_MAPS).build();
    private final List<Watcher<?>> watchers = new ArrayList<>(List.of(configMaps));
    private final List<Reconciler<?>> reconcilers = new ArrayList<>();
    private final List<ReconcileOutcome> outcomes = new CopyOnWriteArrayList<>();
    private final Map<String, AtomicInteger> reconcileCounts = new ConcurrentHashMap<>();

    @AfterEach
    void closeEverything() {
        reconcilers.forEach(c -> c.close(Duration.ofSeconds(1)));
        watchers.forEach(Watcher::close);
    }

    @Test
    void reconcilesEveryObjectOnceSyncedAndAgainWhenItChanges() {
        configMapApi.listing(configMap("a", "1"), configMap("b", "1"), configMap("c", "1"));
        start(builder(counting(ReconcileResult.done())));

        await().until(() -> counts().equals(Map.of("a", 1, "b", 1, "c", 1)));
        configMapApi.apply(configMap("a", "2"));

        await().until(() -> counts().equals(Map.of("a", 2, "b", 1, "c", 1)));
    }

    @Test
    void aFailingReconcileIsRetriedWithGrowingPerObjectDelays() {
        configMapApi.listing(configMap("a", "1"), configMap("ok", "1"));
        start(builder((object, context) -> {
            count(object);
            if (object.getMetadata().getName().equals("a")) {
                throw new IllegalStateException("boom " + context.attempt());
            }
            return ReconcileResult.done();
        }));

        await().until(() -> delaysOf("a").size() >= 5);

        assertThat(delaysOf("a").subList(0, 5)).containsExactly(Duration.ofMillis(5), Duration.ofMillis(10),
                Duration.ofMillis(20), Duration.ofMillis(40), Duration.ofMillis(80));
        assertThat(outcomes).filteredOn(o -> o.key().name().equals("a")).extracting(ReconcileOutcome::attempt)
                .startsWith(1, 2, 3, 4, 5);
        assertThat(counts()).containsEntry("ok", 1);
        ReconcilerSnapshot snapshot = reconcilers.get(0).snapshot();
        assertThat(snapshot.failingKeysTotal()).isEqualTo(1);
        assertThat(snapshot.failingKeys().get(0).key()).isEqualTo("default/a");
        assertThat(snapshot.failingKeys().get(0).terminal()).isFalse();
        assertThat(snapshot.failingKeys().get(0).lastError()).contains("boom");
        assertThat(snapshot.counts().errors()).isGreaterThanOrEqualTo(5);
    }

    @Test
    void aWriteAnswered429WaitsForTheServersRetryAfterNotJustTheBackoff() {
        configMapApi.listing(configMap("a", "1"));
        start(builder((object, context) -> {
            count(object);
            throw new IllegalStateException("the write failed", new ApiException(429,
                    Map.of("Retry-After", List.of("1")), "{\"kind\":\"Status\",\"code\":429}"));
        }));

        await().until(() -> !delaysOf("a").isEmpty());

        assertThat(delaysOf("a").get(0)).as("the first backoff would be 5 ms").isEqualTo(Duration.ofSeconds(1));
        assertThat(reconcilers.get(0).snapshot().failingKeys().get(0).delay()).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void aResyncReconcilesEveryObjectAgainWhenItsJitteredPeriodEndsAndNoCountIncludesIt() {
        ManualTime time = new ManualTime();
        Instant t0 = time.clock().instant();
        configMapApi.listing(configMap("a", "1"), configMap("b", "1"));
        Reconciler<V1ConfigMap> reconciler = start(builder(counting(ReconcileResult.done())).timeSource(time)
                .settings(ReconcilerSettings.defaults().withResyncPeriod(Duration.ofMinutes(10)))
                .resyncJitter(() -> 0.0));
        await().until(() -> counts().equals(Map.of("a", 1, "b", 1)));

        assertThat(reconciler.queue().nextResyncAt()).as("10 min × 0.9").isEqualTo(t0.plus(Duration.ofMinutes(9)));
        settle(reconciler, time);
        assertThat(reconciler.queueDepth()).isZero();
        assertThat(reconciler.snapshot().scheduled()).isZero();

        time.advance(Duration.ofMinutes(9));
        await().until(() -> counts().equals(Map.of("a", 2, "b", 2)));
        assertThat(reconciler.queue().nextResyncAt()).isEqualTo(t0.plus(Duration.ofMinutes(18)));
    }

    @Test
    void theSnapshotShowsThePerObjectBackoff() {
        Reconciler<V1ConfigMap> reconciler = builder(counting(ReconcileResult.done())).build();

        assertThat(reconciler.snapshot().backOff()).isEqualTo(new ReconcilerSnapshot.BackOff("exponential-jitter",
                Duration.ofMillis(5), Duration.ofSeconds(1000), 2.0, 0.0));
    }

    @Test
    void successResetsTheBackOff() {
        configMapApi.listing(configMap("a", "1"));
        AtomicInteger calls = new AtomicInteger();
        start(builder((object, context) -> {
            int call = calls.incrementAndGet();
            if (call == 3) {
                return ReconcileResult.done();
            }
            if (call > 5) {
                return ReconcileResult.done();
            }
            throw new IllegalStateException("call " + call);
        }));
        await().until(() -> outcomes.size() >= 3);
        configMapApi.apply(configMap("a", "2"));

        await().until(() -> outcomes.size() >= 6);
        assertThat(outcomes).extracting(ReconcileOutcome::next).containsExactly(Duration.ofMillis(5),
                Duration.ofMillis(10), null, Duration.ofMillis(5), Duration.ofMillis(10), null);
        assertThat(reconcilers.get(0).snapshot().failingKeysTotal()).isZero();
    }

    @Test
    void requeueAfterIsHonoured() {
        configMapApi.listing(configMap("a", "1"));
        start(builder(counting(ReconcileResult.requeueAfter(Duration.ofHours(1)))));

        await().until(() -> outcomes.size() == 1);

        assertThat(outcomes.get(0).kind()).isEqualTo(ReconcileOutcome.Kind.REQUEUE);
        assertThat(outcomes.get(0).next()).isEqualTo(Duration.ofHours(1));
        ReconcilerSnapshot snapshot = reconcilers.get(0).snapshot();
        assertThat(snapshot.queueDepth()).as("nothing is due now").isZero();
        assertThat(snapshot.scheduled()).as("the requeued key waits for its hour").isEqualTo(1);
        assertThat(snapshot.lastResult()).isEqualTo("requeue");
        assertThat(snapshot.counts().requeues()).isEqualTo(1);
    }

    @Test
    void aTerminalErrorIsNotRetriedUntilTheResourceVersionChanges() {
        configMapApi.listing(configMap("a", "1"), configMap("marker", "1"));
        Reconciler<V1ConfigMap> reconciler = start(builder((object, context) -> {
            count(object);
            if (object.getMetadata().getName().equals("a") && object.getMetadata().getResourceVersion().equals("1")) {
                throw new TerminalReconcileException("spec is invalid");
            }
            return ReconcileResult.done();
        }));
        await().until(() -> counts().equals(Map.of("a", 1, "marker", 1)));
        assertThat(reconciler.snapshot().failingKeys()).singleElement().satisfies(failing -> {
            assertThat(failing.terminal()).isTrue();
            assertThat(failing.nextRetryAt()).isNull();
            assertThat(failing.lastError()).contains("spec is invalid");
        });

        // Same version: a's turn comes before the marker's (one worker, FIFO), and it is skipped.
        reconciler.enqueue(new ObjectKey("default", "a"));
        reconciler.enqueue(new ObjectKey("default", "marker"));
        await().until(() -> counts().get("marker") == 2);
        assertThat(counts()).containsEntry("a", 1);

        configMapApi.apply(configMap("a", "2"));
        await().until(() -> counts().get("a") == 2);
        assertThat(reconciler.snapshot().failingKeysTotal()).isZero();
    }

    @Test
    void neverMoreThanConcurrencyAtOnceNorTwoOfOneKey() {
        int keys = 40;
        int rounds = 15;
        configMapApi.listing(IntStream.range(0, keys).mapToObj(i -> configMap("k" + i, "0"))
                .toArray(V1ConfigMap[]::new));
        AtomicInteger running = new AtomicInteger();
        AtomicInteger maxRunning = new AtomicInteger();
        Set<String> busyKeys = ConcurrentHashMap.newKeySet();
        AtomicInteger overlaps = new AtomicInteger();
        Map<String, String> lastVersion = new ConcurrentHashMap<>();
        start(builder((object, context) -> {
            String name = object.getMetadata().getName();
            if (!busyKeys.add(name)) {
                overlaps.incrementAndGet();
            }
            maxRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
            for (int i = 0; i < 50; i++) {
                Thread.yield();
            }
            lastVersion.put(name, object.getMetadata().getResourceVersion());
            running.decrementAndGet();
            busyKeys.remove(name);
            return ReconcileResult.done();
        }).settings(ReconcilerSettings.defaults().withConcurrency(4)));

        for (int round = 1; round <= rounds; round++) {
            for (int i = 0; i < keys; i++) {
                configMapApi.apply(configMap("k" + i, Integer.toString(round)));
            }
        }

        await().until(() -> lastVersion.size() == keys
                && lastVersion.values().stream().allMatch(Integer.toString(rounds)::equals));
        assertThat(overlaps).hasValue(0);
        assertThat(maxRunning.get()).isBetween(1, 4);
    }

    @Test
    void reconcilesWaitForEveryStoreToBeReady() throws Exception {
        configMapApi.listing(configMap("a", "1"));
        FakeWatchApi<V1Secret> secretApi = new FakeWatchApi<>(SECRETS).holdList();
        Watcher<V1Secret> secrets = watch(secretApi, SECRETS);
        Reconciler<V1ConfigMap> reconciler = start(builder(counting(ReconcileResult.done())).owns(secrets));

        assertThat(configMaps.store().awaitReady(Duration.ofSeconds(5))).isTrue();
        assertThat(reconciler.snapshot().ready()).isFalse();
        assertThat(counts()).isEmpty();

        secretApi.releaseList();
        await().until(() -> counts().equals(Map.of("a", 1)));
        assertThat(reconciler.snapshot().ready()).isTrue();
    }

    @Test
    void aChangeOfAnOwnedObjectReconcilesItsControllerOwner() {
        configMapApi.listing(configMap("a", "1"), configMap("b", "1"));
        FakeWatchApi<V1Secret> secretApi = new FakeWatchApi<>(SECRETS);
        Watcher<V1Secret> secrets = watch(secretApi, SECRETS);
        start(builder(counting(ReconcileResult.done())).owns(secrets));
        await().until(() -> counts().equals(Map.of("a", 1, "b", 1)));

        secretApi.apply(secretOwnedBy("s1", "a", false)); // not the reconciler owner: ignored
        secretApi.apply(secretOwnedBy("s2", "b", true));

        await().until(() -> counts().equals(Map.of("a", 1, "b", 2)));
    }

    @Test
    void objectsARelistNoLongerFindsReachTheReconcilerAsDeletes() {
        configMapApi.listing(configMap("a", "1"), configMap("failing", "1"));
        FakeWatchApi<V1Secret> secretApi = new FakeWatchApi<>(SECRETS).listing(secretOwnedBy("s1", "a", true));
        Watcher<V1Secret> secrets = watch(secretApi, SECRETS);
        Reconciler<V1ConfigMap> reconciler = start(builder((object, context) -> {
            count(object);
            if (object.getMetadata().getName().equals("failing")) {
                throw new IllegalStateException("boom");
            }
            return ReconcileResult.done();
        }).owns(secrets).settings(ReconcilerSettings.defaults().withBackOffPolicy(
                new JitteredExponentialBackOffPolicy(Duration.ofHours(1), 2.0, Duration.ofHours(1), 0.0))));
        await().until(() -> counts().equals(Map.of("a", 1, "failing", 1)));
        assertThat(reconciler.failingKeys()).isEqualTo(1);

        secretApi.relist(); // s1 was deleted while the watch was down
        await("the owner of the vanished secret is reconciled")
                .until(() -> counts().equals(Map.of("a", 2, "failing", 1)));

        configMapApi.relist(configMap("a", "1")); // and so was the failing primary
        await("the vanished primary's failure is forgotten").until(() -> reconciler.failingKeys() == 0);
        assertThat(counts()).containsEntry("failing", 1);
    }

    @Test
    void aUserMapperMapsWatchedObjects() {
        configMapApi.listing(configMap("a", "1"));
        FakeWatchApi<V1Secret> secretApi = new FakeWatchApi<>(SECRETS);
        Watcher<V1Secret> secrets = watch(secretApi, SECRETS);
        start(builder(counting(ReconcileResult.done()))
                .watches(secrets, secret -> List.of(new ObjectKey("default", "a"))));
        await().until(() -> counts().equals(Map.of("a", 1)));

        secretApi.apply(secretOwnedBy("anything", "nobody", false));

        await().until(() -> counts().equals(Map.of("a", 2)));
    }

    @Test
    void theGenerationFilterIgnoresChangesThatKeepTheGeneration() {
        configMapApi.listing(configMap("a", "1", 1), configMap("marker", "1", 1));
        start(builder(counting(ReconcileResult.done()))
                .settings(ReconcilerSettings.defaults().withTriggers(Trigger.GENERATION)));
        await().until(() -> counts().equals(Map.of("a", 1, "marker", 1)));

        configMapApi.apply(configMap("a", "2", 1)); // a status-only write: same generation
        configMapApi.apply(configMap("marker", "2", 2));
        await().until(() -> counts().get("marker") == 2);
        assertThat(counts()).containsEntry("a", 1);

        configMapApi.apply(configMap("a", "3", 2));
        await().until(() -> counts().get("a") == 2);
    }

    @Test
    void aDeletedPrimaryIsNotReconciledAndItsFailureIsForgotten() {
        configMapApi.listing(configMap("a", "1"), configMap("marker", "1"));
        Reconciler<V1ConfigMap> reconciler = start(builder((object, context) -> {
            count(object);
            if (object.getMetadata().getName().equals("a")) {
                throw new TerminalReconcileException("never");
            }
            return ReconcileResult.done();
        }));
        await().until(() -> reconciler.snapshot().failingKeysTotal() == 1 && counts().size() == 2);

        configMapApi.delete(configMap("a", "2"));
        await().until(() -> reconciler.snapshot().failingKeysTotal() == 0);
        reconciler.enqueue(new ObjectKey("default", "a"));
        reconciler.enqueue(new ObjectKey("default", "marker"));

        await().until(() -> counts().get("marker") == 2);
        assertThat(counts()).containsEntry("a", 1);
    }

    @Test
    void retryFailingNowRetriesAtOnce() {
        configMapApi.listing(configMap("a", "1"));
        AtomicInteger calls = new AtomicInteger();
        Reconciler<V1ConfigMap> reconciler = start(builder((object, context) -> {
            if (calls.incrementAndGet() == 1) {
                throw new TerminalReconcileException("first time");
            }
            return ReconcileResult.done();
        }));
        await().until(() -> reconciler.snapshot().failingKeysTotal() == 1);

        reconciler.retryFailingNow();

        await().until(() -> calls.get() == 2);
        await().until(() -> reconciler.snapshot().failingKeysTotal() == 0);
    }

    @Test
    void reconcilesRunInsideTheObserverAndSeeTheirContext() {
        configMapApi.listing(configMap("a", "1"));
        List<String> observed = new CopyOnWriteArrayList<>();
        List<Object> stores = new CopyOnWriteArrayList<>();
        start(builder((object, context) -> {
            stores.add(context.store(V1ConfigMap.class).get(context.key()).orElseThrow());
            return ReconcileResult.done();
        }).observer(new ReconcileObserver() {
            @Override
            public <R> R observe(String reconciler, ObjectKey key, java.util.concurrent.Callable<R> reconcile)
                    throws Exception {
                observed.add(reconciler + " " + key);
                return reconcile.call();
            }
        }));

        await().until(() -> stores.size() == 1);
        assertThat(observed).containsExactly("test default/a");
    }

    @Test
    void closeWithGraceInterruptsAStuckReconcileAndLeavesNoThread() throws Exception {
        configMapApi.listing(configMap("a", "1"));
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        AtomicInteger interrupted = new AtomicInteger();
        Reconciler<V1ConfigMap> reconciler = start(builder((object, context) -> {
            started.countDown();
            try {
                never.await();
            } catch (InterruptedException e) {
                interrupted.incrementAndGet();
                throw e;
            }
            return ReconcileResult.done();
        }).settings(ReconcilerSettings.defaults().withConcurrency(3)));
        assertThat(started.await(5, java.util.concurrent.TimeUnit.SECONDS)).isTrue();

        reconciler.close(Duration.ofMillis(50));

        assertThat(interrupted).hasValue(1);
        assertThat(reconciler.isRunning()).isFalse();
        assertThat(Thread.getAllStackTraces().keySet()).noneMatch(t -> t.getName().startsWith("watchkeeper-test-"));
        assertThat(reconciler.counts().errors()).as("cut short by the shutdown, not failed").isZero();
        assertThat(reconciler.snapshot().failingKeys()).isEmpty();
    }

    @Test
    void closeWaitsForARunningReconcileWithinTheGrace() throws Exception {
        configMapApi.listing(configMap("a", "1"));
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        Reconciler<V1ConfigMap> reconciler = start(builder((object, context) -> {
            started.countDown();
            finish.await();
            count(object);
            return ReconcileResult.done();
        }));
        assertThat(started.await(5, java.util.concurrent.TimeUnit.SECONDS)).isTrue();

        Thread closer = new Thread(() -> reconciler.close(Duration.ofSeconds(5)));
        closer.start();
        finish.countDown();
        closer.join(5000);

        assertThat(counts()).containsEntry("a", 1);
        assertThat(reconciler.isRunning()).isFalse();
    }

    @Test
    void debounceCoalescesABurstIntoOneReconcileAFixedWindowAfterItsFirstEvent() {
        ManualTime time = new ManualTime();
        configMapApi.listing(configMap("a", "1"));
        List<String> reconciled = new CopyOnWriteArrayList<>();
        Instant t0 = time.clock().instant();
        Reconciler<V1ConfigMap> reconciler = start(builder((object, context) -> {
            reconciled.add(object.getMetadata().getResourceVersion() + " at "
                    + Duration.between(t0, time.clock().instant()).toMillis() + "ms");
            return ReconcileResult.done();
        }).timeSource(time).settings(ReconcilerSettings.defaults().withDebounce(Duration.ofSeconds(1))));
        AtomicInteger delivered = deliveredEvents(configMaps);
        await().until(() -> reconciled.size() == 1);
        assertThat(reconciled).as("the initial sync is not debounced").containsExactly("1 at 0ms");

        for (int version = 2; version <= 11; version++) { // ten events, at 0, 100, … 900 ms
            if (version > 2) {
                time.advance(Duration.ofMillis(100));
            }
            configMapApi.apply(configMap("a", Integer.toString(version)));
            int expected = version - 1;
            await().until(() -> delivered.get() == expected);
        }
        settle(reconciler, time);
        assertThat(reconciled).as("nothing is due before the window ends").hasSize(1);
        assertThat(reconciler.snapshot().scheduled()).isEqualTo(1);

        time.advance(Duration.ofMillis(100));
        settle(reconciler, time);

        assertThat(reconciled).as("one reconcile, of the latest version, 1 s after the first event (kube-rs: after"
                + " the last)").containsExactly("1 at 0ms", "11 at 1000ms");
        assertThat(reconciler.snapshot().scheduled()).isZero();
    }

    @Test
    void debounceStillReconcilesAnObjectThatChangesWithoutPauseOncePerWindow() {
        ManualTime time = new ManualTime();
        configMapApi.listing(configMap("a", "0"));
        List<Long> startedAt = new CopyOnWriteArrayList<>();
        Instant t0 = time.clock().instant();
        Reconciler<V1ConfigMap> reconciler = start(builder((object, context) -> {
            startedAt.add(Duration.between(t0, time.clock().instant()).toMillis());
            return ReconcileResult.done();
        }).timeSource(time).settings(ReconcilerSettings.defaults().withDebounce(Duration.ofSeconds(1))));
        AtomicInteger delivered = deliveredEvents(configMaps);
        await().until(() -> startedAt.size() == 1);
        startedAt.clear();

        for (int step = 1; step <= 50; step++) { // an event every 100 ms for 5 s
            configMapApi.apply(configMap("a", Integer.toString(step)));
            int expected = step;
            await().until(() -> delivered.get() == expected);
            time.advance(Duration.ofMillis(100));
            settle(reconciler, time);
        }

        assertThat(startedAt).as("kube-rs would wait for a pause that never comes; each window here runs from the"
                + " first event after the previous reconcile").containsExactly(1000L, 2000L, 3000L, 4000L, 5000L);
    }

    @Test
    void requeuesAndErrorRetriesAreNotDebounced() {
        ManualTime time = new ManualTime();
        configMapApi.listing(configMap("a", "1"));
        List<Long> startedAt = new CopyOnWriteArrayList<>();
        Instant t0 = time.clock().instant();
        Reconciler<V1ConfigMap> reconciler = start(builder((object, context) -> {
            startedAt.add(Duration.between(t0, time.clock().instant()).toMillis());
            if (startedAt.size() == 1) {
                return ReconcileResult.requeueAfter(Duration.ofMillis(200));
            }
            if (startedAt.size() == 2) {
                throw new IllegalStateException("fails once");
            }
            return ReconcileResult.done();
        }).timeSource(time).settings(ReconcilerSettings.defaults().withDebounce(Duration.ofSeconds(10))));
        await().until(() -> startedAt.size() == 1);

        time.advance(Duration.ofMillis(200));
        settle(reconciler, time);
        time.advance(Duration.ofMillis(5)); // the first per-object backoff
        settle(reconciler, time);

        assertThat(startedAt).containsExactly(0L, 200L, 205L);
    }

    @Test
    void withShutdownDrainCloseReconcilesTheKeysQueuedWithinTheGrace() throws Exception {
        configMapApi.listing(configMap("a", "1"), configMap("b", "1"), configMap("c", "1"), configMap("d", "1"));
        CountDownLatch firstStarted = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Reconciler<V1ConfigMap> reconciler = start(builder(firstWaitsFor(firstStarted, release)) // one worker: 3 wait
                .settings(ReconcilerSettings.defaults().withConcurrency(1).withShutdownDrain(true)));
        assertThat(firstStarted.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(reconciler.snapshot().queueDepth()).isEqualTo(3);

        Thread closer = new Thread(() -> reconciler.close(Duration.ofSeconds(5)));
        closer.start();
        await().until(() -> reconciler.queue().isShutDown());
        configMapApi.apply(configMap("e", "2")); // after the stop: not taken
        release.countDown();
        closer.join(5000);

        assertThat(closer.isAlive()).isFalse();
        assertThat(counts()).isEqualTo(Map.of("a", 1, "b", 1, "c", 1, "d", 1));
        assertThat(reconciler.isRunning()).isFalse();
    }

    @Test
    void withoutShutdownDrainCloseDropsTheQueuedKeys() throws Exception {
        configMapApi.listing(configMap("a", "1"), configMap("b", "1"), configMap("c", "1"), configMap("d", "1"));
        CountDownLatch firstStarted = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Reconciler<V1ConfigMap> reconciler = start(builder(firstWaitsFor(firstStarted, release)) // one worker: 3 wait
                .settings(ReconcilerSettings.defaults().withConcurrency(1)));
        assertThat(firstStarted.await(5, TimeUnit.SECONDS)).isTrue();

        Thread closer = new Thread(() -> reconciler.close(Duration.ofSeconds(5)));
        closer.start();
        await().until(() -> reconciler.queue().isShutDown());
        release.countDown();
        closer.join(5000);

        assertThat(counts()).as("only the reconcile that was running").hasSize(1).containsValue(1);
        assertThat(reconciler.isRunning()).isFalse();
    }

    @Test
    void aDrainEndsAtTheGraceAndALostLeaseEndsItAtOnce() throws Exception {
        configMapApi.listing(configMap("a", "1"), configMap("b", "1"), configMap("c", "1"));
        CountDownLatch firstStarted = new CountDownLatch(1);
        AtomicInteger interrupted = new AtomicInteger();
        Reconciler<V1ConfigMap> reconciler = start(builder((object, context) -> {
            count(object);
            firstStarted.countDown();
            try {
                new CountDownLatch(1).await();
            } catch (InterruptedException e) {
                interrupted.incrementAndGet();
                throw e;
            }
            return ReconcileResult.done();
        }).settings(ReconcilerSettings.defaults().withConcurrency(1).withShutdownDrain(true))); // one runs, 2 wait
        assertThat(firstStarted.await(5, TimeUnit.SECONDS)).isTrue();

        reconciler.stop();
        reconciler.suspend(); // the Lease is lost during the drain

        assertThat(reconciler.awaitSuspended(Duration.ofSeconds(5))).isTrue();
        assertThat(interrupted).hasValue(1);
        assertThat(counts()).as("the queued keys were dropped, not drained").hasSize(1);
    }

    @Test
    void aReconcileThatIgnoresItsInterruptIsReportedAfterTheGraceAndCloseStillReturns() throws Exception {
        configMapApi.listing(configMap("a", "1"));
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Reconciler<V1ConfigMap> reconciler = start(builder((object, context) -> {
            started.countDown();
            while (true) {
                try {
                    if (release.await(10, TimeUnit.SECONDS)) {
                        return ReconcileResult.done();
                    }
                } catch (InterruptedException ignored) {
                    // the defect under test: it carries on
                }
            }
        }));
        assertThat(started.await(5, TimeUnit.SECONDS)).isTrue();
        Logger loopLog = (Logger) LoggerFactory.getLogger(Reconciler.class);
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        logged.start();
        loopLog.addAppender(logged);
        try {
            long before = System.nanoTime();
            reconciler.close(Duration.ofMillis(50));
            long took = System.nanoTime() - before;

            assertThat(Duration.ofNanos(took)).as("the grace, 1 s after the interrupt, and no more")
                    .isLessThan(Duration.ofSeconds(3));
            assertThat(logged.list).filteredOn(e -> e.getLevel() == Level.WARN)
                    .extracting(ILoggingEvent::getFormattedMessage).singleElement().asString()
                    .contains("reconciler test", "reconcile of default/a ignored its interrupt");
            assertThat(reconciler.snapshot().stuckKeys()).containsExactly("default/a");
        } finally {
            loopLog.detachAppender(logged);
            release.countDown();
        }
        await().until(() -> reconciler.snapshot().stuckKeys().isEmpty());
    }

    @Test
    void theRateLimitBoundsRetryStartsPerSecondOnceItsBurstIsSpent() {
        ManualTime time = new ManualTime();
        int keys = 300;
        configMapApi.listing(IntStream.range(0, keys).mapToObj(i -> configMap("k" + i, "1"))
                .toArray(V1ConfigMap[]::new));
        Instant t0 = time.clock().instant();
        List<Long> retryStarts = new CopyOnWriteArrayList<>();
        AtomicInteger firstAttempts = new AtomicInteger();
        Reconciler<V1ConfigMap> reconciler = start(builder((object, context) -> {
            if (context.attempt() == 1) {
                firstAttempts.incrementAndGet();
            } else {
                retryStarts.add(Duration.between(t0, time.clock().instant()).toMillis());
            }
            throw new AlwaysFails();
        }).timeSource(time).settings(ReconcilerSettings.defaults()
                .withBackOffPolicy(new JitteredExponentialBackOffPolicy(Duration.ofMillis(1), 1.0,
                        Duration.ofMillis(1), 0.0)) // 1 ms apart per object: only the bucket holds retries back
                .withRateLimit(RateLimit.clientGo())));
        await().until(() -> firstAttempts.get() == keys);
        settle(reconciler, time);
        assertThat(reconciler.snapshot().rateLimit().delay()).as("visible while it delays work")
                .isEqualTo(Duration.ofMillis(20_100)); // 300 tokens taken of 100: a 301st waits 201 / 10 s

        for (int step = 0; step < 100; step++) { // 10 virtual seconds
            time.advance(Duration.ofMillis(100));
            settle(reconciler, time);
        }

        Map<Long, Long> perSecond = retryStarts.stream()
                .collect(Collectors.groupingBy(ms -> ms / 1000, Collectors.counting()));
        assertThat(perSecond.get(0L)).as("the burst of 100, then one every 100 ms").isEqualTo(109);
        for (long second = 1; second < 10; second++) {
            assertThat(perSecond.get(second)).as("second %d", second).isEqualTo(10);
        }
        assertThat(retryStarts).hasSize(200);
        ReconcilerSnapshot.RateLimitState limit = reconciler.snapshot().rateLimit();
        assertThat(limit.qps()).isEqualTo(10.0);
        assertThat(limit.burst()).isEqualTo(100);
        assertThat(limit.limitedRetries()).isGreaterThan(keys);
        assertThat(limit.delay()).isPositive();
    }

    @Test
    void withoutARateLimitTheSnapshotShowsNone() {
        configMapApi.listing(configMap("a", "1"));
        Reconciler<V1ConfigMap> reconciler = start(builder(counting(ReconcileResult.done())));

        assertThat(reconciler.snapshot().rateLimit()).isNull();
    }

    /** Fails every reconcile, without a stack trace for the logs. */
    private static final class AlwaysFails extends RuntimeException {
        private static final long serialVersionUID = 1L;

        AlwaysFails() {
            super("fails on purpose", null, false, false);
        }
    }

    /** The first reconcile signals {@code started} and waits for {@code release}; every one is counted. */
    private ReconcileFunction<V1ConfigMap> firstWaitsFor(CountDownLatch started, CountDownLatch release) {
        AtomicInteger calls = new AtomicInteger();
        return (object, context) -> {
            count(object);
            if (calls.incrementAndGet() == 1) {
                started.countDown();
                release.await();
            }
            return ReconcileResult.done();
        };
    }

    /** Counts the primary events that reached listeners added before this one (the reconciler's). */
    private static AtomicInteger deliveredEvents(Watcher<V1ConfigMap> watcher) {
        AtomicInteger delivered = new AtomicInteger();
        watcher.addListener(event -> {
            if (event instanceof dev.watchkeeper.watch.WatchEvent.Apply<V1ConfigMap>) {
                delivered.incrementAndGet();
            }
        });
        return delivered;
    }

    /** Waits until no reconcile runs and no queued key is due on {@code time}, so every due reconcile has run. */
    private static void settle(Reconciler<?> reconciler, ManualTime time) {
        ReconcileQueue queue = reconciler.queue();
        await().until(() -> queue.inFlight() == 0 && queue.depth() == 0 && reconciler.primary().store().list()
                .stream().map(ObjectKey::of).map(queue::dueAt)
                .allMatch(due -> due == null || due.isAfter(time.clock().instant())));
    }

    @Test
    void aReconcileInterruptedBySuspensionIsNeitherSuccessNorFailureAndRunsAgainOnResume() throws Exception {
        configMapApi.listing(configMap("a", "1"));
        CountDownLatch started = new CountDownLatch(1);
        List<Integer> attempts = new CopyOnWriteArrayList<>();
        Reconciler<V1ConfigMap> reconciler = start(builder((object, context) -> {
            attempts.add(context.attempt());
            if (attempts.size() == 1) {
                started.countDown();
                new CountDownLatch(1).await(); // until the loss of leadership interrupts it
            }
            return ReconcileResult.done();
        }));
        assertThat(started.await(5, java.util.concurrent.TimeUnit.SECONDS)).isTrue();

        reconciler.suspend();
        assertThat(reconciler.awaitSuspended(Duration.ofSeconds(5))).isTrue();

        assertThat(outcomes).isEmpty();
        assertThat(reconciler.counts().errors()).isZero();
        assertThat(reconciler.counts().reconciles()).isZero();
        assertThat(reconciler.failingKeys()).isZero();
        assertThat(reconciler.snapshot().lastResult()).isNull();
        assertThat(reconciler.queueDepth()).isEqualTo(1); // left for the next term, due now

        reconciler.resume();
        await().atMost(Duration.ofSeconds(5)).until(() -> outcomes.size() == 1);
        assertThat(attempts).containsExactly(1, 1);
        assertThat(outcomes.get(0).kind()).isEqualTo(ReconcileOutcome.Kind.DONE);
    }

    private ReconcilerBuilder<V1ConfigMap> builder(ReconcileFunction<V1ConfigMap> reconcile) {
        return Reconciler.builder("test", configMaps, reconcile).listener(outcomes::add);
    }

    private Reconciler<V1ConfigMap> start(ReconcilerBuilder<V1ConfigMap> builder) {
        Reconciler<V1ConfigMap> reconciler = builder.build();
        reconcilers.add(reconciler);
        watchers.forEach(w -> {
            if (!w.isRunning()) {
                w.start();
            }
        });
        reconciler.start();
        return reconciler;
    }

    private <S extends KubernetesObject> Watcher<S> watch(FakeWatchApi<S> api, ResourceType<S> type) {
        Watcher<S> watcher = Watcher.builder(api, type).build();
        watchers.add(watcher);
        return watcher;
    }

    private ReconcileFunction<V1ConfigMap> counting(ReconcileResult result) {
        return (object, context) -> {
            count(object);
            return result;
        };
    }

    private void count(KubernetesObject object) {
        reconcileCounts.computeIfAbsent(object.getMetadata().getName(), k -> new AtomicInteger()).incrementAndGet();
    }

    private Map<String, Integer> counts() {
        return reconcileCounts.entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().get()));
    }

    private List<Duration> delaysOf(String name) {
        return outcomes.stream().filter(o -> o.key().name().equals(name) && o.kind() == ReconcileOutcome.Kind.ERROR)
                .map(ReconcileOutcome::next).toList();
    }
}
