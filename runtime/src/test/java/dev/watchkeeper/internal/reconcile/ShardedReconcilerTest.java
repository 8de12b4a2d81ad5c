package dev.watchkeeper.internal.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.watchkeeper.internal.shard.ShardParticipant;
import dev.watchkeeper.internal.shard.Slots;
import dev.watchkeeper.internal.watch.Watcher;
import dev.watchkeeper.reconcile.FakeWatchApi;
import dev.watchkeeper.reconcile.ManualTime;
import dev.watchkeeper.reconcile.ReconcileResult;
import dev.watchkeeper.reconcile.ReconcilerSnapshot;
import dev.watchkeeper.internal.resource.ResourceType;
import dev.watchkeeper.store.ObjectKey;
import dev.watchkeeper.watch.WatchEvent;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A sharded {@link Reconciler}: only keys of its active slots are reconciled; narrow drains, widen enqueues. */
@Timeout(20)
class ShardedReconcilerTest {

    private static final ResourceType<V1ConfigMap> CONFIG_MAPS =
            ResourceType.of(V1ConfigMap.class).withPlural("configmaps", true);
    private static final Duration GRACE = Duration.ofSeconds(5);
    /** Eight names whose uids lie in eight different slots. */
    private static final Map<String, String> UIDS = uidsInDistinctSlots("a", "b", "c", "d", "e", "f", "g", "h");

    @BeforeAll
    static void pollQuickly() {
        Awaitility.setDefaultPollInterval(Duration.ofMillis(5));
    }

    private final FakeWatchApi<V1ConfigMap> api = new FakeWatchApi<>(CONFIG_MAPS);
    private final Watcher<V1ConfigMap> configMaps = Watcher.builder(api, CONFIG_MAPS).build();
    private final List<Reconciler<?>> reconcilers = new ArrayList<>();
    private final List<ReconcileOutcome> outcomes = new CopyOnWriteArrayList<>();
    private final Map<String, AtomicInteger> reconciled = new ConcurrentHashMap<>();

    @AfterEach
    void closeEverything() {
        reconcilers.forEach(r -> r.close(Duration.ofSeconds(1)));
        configMaps.close();
    }

    @Test
    void aShardedReconcilerReconcilesNothingUntilItWidens() {
        api.listing(object("a"), object("b"));
        Reconciler<V1ConfigMap> reconciler = start(builder(counting()));
        await().until(reconciler::isReady);
        settle(reconciler);

        assertThat(reconciled).isEmpty();
        assertThat(reconciler.snapshot().shard()).isEqualTo(new ReconcilerSnapshot.Shard("[]", false));

        reconciler.widen(slots("a"));

        await().until(() -> counts().equals(Map.of("a", 1)));
        settle(reconciler);
        assertThat(counts()).isEqualTo(Map.of("a", 1));
        assertThat(reconciler.snapshot().shard()).isEqualTo(new ReconcilerSnapshot.Shard(slots("a").toString(), false));
    }

    @Test
    void keysOutsideTheActiveSlotsAreDroppedNeitherReconciledNorCounted() {
        api.listing(object("a"), object("b"));
        Reconciler<V1ConfigMap> reconciler = start(builder((object, context) -> {
            count(object);
            if (object.getMetadata().getName().equals("b")) {
                throw new IllegalStateException("b is not this replica's");
            }
            return ReconcileResult.done();
        }));
        reconciler.widen(slots("a"));
        await().until(() -> counts().equals(Map.of("a", 1)));

        reconciler.enqueue(key("b"));
        api.apply(object("b", "2"));
        api.apply(object("a", "2")); // after b's change on the same watch, so b's has arrived once a is reconciled
        await().until(() -> counts().equals(Map.of("a", 2)));
        settle(reconciler);

        assertThat(counts()).isEqualTo(Map.of("a", 2));
        assertThat(outcomes).extracting(o -> o.key().name()).containsExactly("a", "a");
        assertThat(reconciler.counts().reconciles()).isEqualTo(2);
        assertThat(reconciler.counts().errors()).isZero();
        assertThat(reconciler.failingKeys()).isZero();
    }

    @Test
    void widenQueuesExactlyTheObjectsOfTheSlotsGained() {
        api.listing(object("a"), object("b"), object("c"));
        Reconciler<V1ConfigMap> reconciler = start(builder(counting()));
        reconciler.widen(slots("a"));
        await().until(() -> counts().equals(Map.of("a", 1)));
        settle(reconciler);

        reconciler.widen(slots("a", "b"));

        await().until(() -> counts().equals(Map.of("a", 1, "b", 1)));
        settle(reconciler);
        assertThat(counts()).as("a is not reconciled again, c not at all").isEqualTo(Map.of("a", 1, "b", 1));
    }

    @Test
    void widenRefusesToGiveUpASlotWithoutANarrow() {
        Reconciler<V1ConfigMap> reconciler = start(builder(counting()));
        reconciler.widen(slots("a", "b"));

        assertThatThrownBy(() -> reconciler.widen(slots("b", "c"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("would give up " + slots("a")).hasMessageContaining("narrow first");
        assertThat(reconciler.snapshot().shard().activeSlots()).isEqualTo(slots("a", "b").toString());
    }

    @Test
    void narrowWaitsForAReconcileBlockedInUserCodeUntilItReturns() throws Exception {
        api.listing(object("a"));
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Reconciler<V1ConfigMap> reconciler = start(builder((object, context) -> {
            count(object);
            started.countDown();
            release.await(); // not interrupted: the clock never reaches the grace
            return ReconcileResult.done();
        }).timeSource(new ManualTime()));
        reconciler.widen(slots("a"));
        assertThat(started.await(5, TimeUnit.SECONDS)).isTrue();

        CompletableFuture<Void> drained = reconciler.narrow(Slots.none());

        assertThat(drained).isNotDone();
        assertThat(reconciler.snapshot().shard()).isEqualTo(new ReconcilerSnapshot.Shard("[]", true));
        release.countDown();
        await().until(drained::isDone);
        assertThat(drained).isCompleted();
        assertThat(reconciler.snapshot().shard()).isEqualTo(new ReconcilerSnapshot.Shard("[]", false));
        assertThat(outcomes).extracting(ReconcileOutcome::kind).as("it returned: a success")
                .containsExactly(ReconcileOutcome.Kind.DONE);
    }

    @Test
    void aReconcileOutlastingTheGraceIsInterruptedNeitherSucceedsNorFailsAndItsWorkerGoesOn() throws Exception {
        api.listing(object("a"));
        ManualTime time = new ManualTime();
        CountDownLatch started = new CountDownLatch(1);
        AtomicInteger calls = new AtomicInteger();
        List<Integer> attempts = new CopyOnWriteArrayList<>();
        Reconciler<V1ConfigMap> reconciler = start(builder((object, context) -> {
            attempts.add(context.attempt());
            if (calls.incrementAndGet() == 1) {
                started.countDown();
                new CountDownLatch(1).await(); // until the drain interrupts it
            }
            return ReconcileResult.done();
        }).timeSource(time));
        reconciler.widen(slots("a"));
        assertThat(started.await(5, TimeUnit.SECONDS)).isTrue();

        CompletableFuture<Void> drained = reconciler.narrow(Slots.none());
        assertThat(drained).isNotDone();
        await().until(() -> {
            time.advance(Duration.ofMillis(500));
            return drained.isDone();
        });

        assertThat(drained).isCompleted();
        settle(reconciler);
        assertThat(outcomes).isEmpty();
        ReconcilerSnapshot snapshot = reconciler.snapshot();
        assertThat(snapshot.counts().reconciles()).isZero();
        assertThat(snapshot.counts().errors()).isZero();
        assertThat(snapshot.failingKeysTotal()).isZero();
        assertThat(snapshot.lastResult()).isNull();
        assertThat(snapshot.stuckKeys()).isEmpty();

        reconciler.widen(slots("a")); // the one worker was not ended by the drain's interrupt
        await().until(() -> outcomes.size() == 1);
        assertThat(outcomes.get(0).kind()).isEqualTo(ReconcileOutcome.Kind.DONE);
        assertThat(attempts).containsExactly(1, 1);
    }

    @Test
    void aReconcileIgnoringItsInterruptIsShownStuckAndKeepsTheDrainPendingUntilItReturns() throws Exception {
        api.listing(object("a"));
        ManualTime time = new ManualTime();
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean interrupted = new AtomicBoolean();
        Reconciler<V1ConfigMap> reconciler = start(builder((object, context) -> {
            started.countDown();
            while (true) {
                try {
                    release.await();
                    return ReconcileResult.done();
                } catch (InterruptedException ignored) {
                    interrupted.set(true); // the defect under test: it carries on
                }
            }
        }).timeSource(time));
        reconciler.widen(slots("a"));
        assertThat(started.await(5, TimeUnit.SECONDS)).isTrue();

        CompletableFuture<Void> drained = reconciler.narrow(Slots.none());
        await().until(() -> {
            time.advance(Duration.ofMillis(200));
            return reconciler.snapshot().stuckKeys().equals(List.of("default/a"));
        });

        assertThat(interrupted).isTrue();
        assertThat(drained).as("its slot may be another replica's only once it returned").isNotDone();
        assertThat(reconciler.snapshot().shard().draining()).isTrue();
        release.countDown();
        await().until(drained::isDone);
        assertThat(reconciler.snapshot().stuckKeys()).isEmpty();
        assertThat(reconciler.snapshot().shard().draining()).isFalse();
    }

    @Test
    void afterANarrowToNoSlotNothingRuns() throws Exception {
        api.listing(object("a"), object("b"));
        AtomicInteger delivered = new AtomicInteger();
        configMaps.addListener(event -> {
            if (event instanceof WatchEvent.Apply<V1ConfigMap>) {
                delivered.incrementAndGet();
            }
        });
        Reconciler<V1ConfigMap> reconciler = start(builder(counting()));
        reconciler.widen(slots("a", "b"));
        await().until(() -> counts().equals(Map.of("a", 1, "b", 1)));

        reconciler.narrow(Slots.none()).get(5, TimeUnit.SECONDS);
        reconciler.enqueue(key("a"));
        reconciler.enqueue(key("b"));
        api.apply(object("a", "2"));
        await().until(() -> delivered.get() == 1);
        settle(reconciler);

        assertThat(counts()).isEqualTo(Map.of("a", 1, "b", 1));
        assertThat(reconciler.counts().reconciles()).isEqualTo(2);
    }

    @Test
    void aNarrowCompletesAtOnceWhenNoReconcileRuns() {
        Reconciler<V1ConfigMap> neverStarted = builder(counting()).build();

        assertThat(neverStarted.narrow(Slots.of(1))).isCompleted();
        assertThat(neverStarted.snapshot().shard()).isEqualTo(new ReconcilerSnapshot.Shard("[1]", false));
    }

    @Test
    void anUnshardedReconcilerHasNoShardStateAndNoParticipant() {
        Reconciler<V1ConfigMap> plain = Reconciler.builder("plain", configMaps, counting()).build();

        assertThat(plain.snapshot().shard()).isNull();
        assertThatThrownBy(() -> plain.narrow(Slots.none())).isInstanceOf(IllegalStateException.class)
                .hasMessage("reconciler plain is not sharded");
        assertThatThrownBy(() -> plain.participant(slots -> { })).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void theParticipantHandsAssignToItsCallbackAndNarrowsAndWidensTheReconciler() throws Exception {
        api.listing(object("a"), object("b"));
        AtomicReference<Slots> assigned = new AtomicReference<>();
        Reconciler<V1ConfigMap> reconciler = start(builder(counting()));
        ShardParticipant participant = reconciler.participant(assigned::set);

        participant.assign(slots("a", "b"));
        participant.narrow(Slots.none()).get(5, TimeUnit.SECONDS);
        participant.widen(slots("b"));

        assertThat(assigned).hasValue(slots("a", "b"));
        await().until(() -> counts().equals(Map.of("b", 1)));
        assertThat(reconciler.snapshot().shard().activeSlots()).isEqualTo(slots("b").toString());
    }

    /**
     * Keys keep arriving on four workers while the test moves the active slots back and forth as a coordinator
     * would (narrow, wait for the drain, widen). Every reconcile records its slot and when it started and ended on a
     * shared counter: none may overlap a stretch in which its slot was given up (from the drain's end to the next
     * widen that takes it back), nor run when a drain of its slot completed. At the end every slot is made active,
     * and each must then be reconciled.
     */
    @Test
    void noReconcileRunsInASlotWhileItIsNotActive() throws Exception {
        List<String> names = List.copyOf(UIDS.keySet());
        api.listing(names.stream().map(this::object).toArray(V1ConfigMap[]::new));
        AtomicLong clock = new AtomicLong();
        record Run(int slot, long start, long end) {
        }
        Queue<Run> runs = new ConcurrentLinkedQueue<>();
        Reconciler<V1ConfigMap> reconciler = start(builder((object, context) -> {
            long start = clock.incrementAndGet();
            for (int i = 0; i < 20; i++) {
                Thread.yield(); // stay running a little, so narrows find reconciles to drain
            }
            runs.add(new Run(slotOf(object.getMetadata().getName()), start, clock.incrementAndGet()));
            return ReconcileResult.done();
        }).settings(ReconcilerSettings.defaults().withConcurrency(4)));
        await().until(reconciler::isReady);
        AtomicBoolean feeding = new AtomicBoolean(true);
        Thread feeder = new Thread(() -> {
            Random random = new Random(7);
            while (feeding.get()) {
                reconciler.enqueue(key(names.get(random.nextInt(names.size()))));
                Thread.yield();
            }
        });
        feeder.start();

        record Given(int slot, long from, long to) {
        }
        List<Given> givenUp = new ArrayList<>();
        long[] givenUpSince = new long[Slots.COUNT]; // 0: never active yet; -1: active now
        Random random = new Random(42);
        Slots current = Slots.none();
        try {
            for (int round = 0; round < 150; round++) {
                Slots target = Slots.none();
                for (String name : names) {
                    if (random.nextBoolean()) {
                        target = target.with(slotOf(name));
                    }
                }
                Slots kept = current.intersection(target);
                CompletableFuture<Void> drained = reconciler.narrow(kept);
                drained.get(5, TimeUnit.SECONDS);
                long drainedAt = clock.incrementAndGet();
                for (int slot : members(current.minus(kept))) {
                    givenUpSince[slot] = drainedAt;
                }
                long widenAt = clock.incrementAndGet();
                for (int slot : members(target.minus(kept))) {
                    givenUp.add(new Given(slot, givenUpSince[slot], widenAt));
                    givenUpSince[slot] = -1;
                }
                reconciler.widen(target);
                current = target;
            }
            Slots all = slots(names.toArray(String[]::new));
            long widenAt = clock.incrementAndGet();
            for (int slot : members(all.minus(current))) {
                givenUp.add(new Given(slot, givenUpSince[slot], widenAt));
                givenUpSince[slot] = -1;
            }
            reconciler.widen(all);
            await("every slot reconciled once all are active").until(
                    () -> runs.stream().map(Run::slot).distinct().count() == names.size());
        } finally {
            feeding.set(false);
            feeder.join();
        }
        reconciler.narrow(Slots.none()).get(5, TimeUnit.SECONDS);
        long end = clock.incrementAndGet();
        for (String name : names) {
            int slot = slotOf(name);
            if (givenUpSince[slot] != -1) {
                givenUp.add(new Given(slot, givenUpSince[slot], end));
            }
        }

        List<String> violations = runs.stream()
                .flatMap(run -> givenUp.stream().filter(given -> given.slot() == run.slot()
                        && run.start() < given.to() && run.end() > given.from())
                        .map(given -> run + " overlaps " + given))
                .toList();
        assertThat(violations).isEmpty();
    }

    private ReconcilerBuilder<V1ConfigMap> builder(ReconcileFunction<V1ConfigMap> reconcile) {
        return Reconciler.builder("sharded", configMaps, reconcile).listener(outcomes::add).sharded()
                .settings(ReconcilerSettings.defaults().withShutdownGrace(GRACE));
    }

    private Reconciler<V1ConfigMap> start(ReconcilerBuilder<V1ConfigMap> builder) {
        Reconciler<V1ConfigMap> reconciler = builder.build();
        reconcilers.add(reconciler);
        if (!configMaps.isRunning()) {
            configMaps.start();
        }
        reconciler.start();
        return reconciler;
    }

    private ReconcileFunction<V1ConfigMap> counting() {
        return (object, context) -> {
            count(object);
            return ReconcileResult.done();
        };
    }

    private void count(V1ConfigMap object) {
        reconciled.computeIfAbsent(object.getMetadata().getName(), k -> new AtomicInteger()).incrementAndGet();
    }

    private Map<String, Integer> counts() {
        return reconciled.entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().get()));
    }

    /** Waits until no key is due or being reconciled. */
    private static void settle(Reconciler<?> reconciler) {
        await().until(() -> reconciler.queue().inFlight() == 0 && reconciler.queue().depth() == 0);
    }

    private V1ConfigMap object(String name) {
        return object(name, "1");
    }

    private V1ConfigMap object(String name, String resourceVersion) {
        return new V1ConfigMap().metadata(new V1ObjectMeta().namespace("default").name(name).uid(UIDS.get(name))
                .resourceVersion(resourceVersion)).data(Map.of("rv", resourceVersion));
    }

    private static ObjectKey key(String name) {
        return new ObjectKey("default", name);
    }

    private static int slotOf(String name) {
        return ActiveSlots.slotOf(UIDS.get(name));
    }

    private static Slots slots(String... names) {
        Slots slots = Slots.none();
        for (String name : names) {
            slots = slots.with(slotOf(name));
        }
        return slots;
    }

    private static List<Integer> members(Slots slots) {
        List<Integer> members = new ArrayList<>();
        for (int slot = 0; slot < Slots.COUNT; slot++) {
            if (slots.has(slot)) {
                members.add(slot);
            }
        }
        return members;
    }

    /** A uid for each name, derived from it, such that no two share a slot. */
    private static Map<String, String> uidsInDistinctSlots(String... names) {
        Map<String, String> uids = new LinkedHashMap<>();
        Slots taken = Slots.none();
        for (String name : names) {
            for (int attempt = 0; ; attempt++) {
                String uid = UUID.nameUUIDFromBytes((name + attempt).getBytes(StandardCharsets.UTF_8)).toString();
                int slot = ActiveSlots.slotOf(uid);
                if (!taken.has(slot)) {
                    uids.put(name, uid);
                    taken = taken.with(slot);
                    break;
                }
            }
        }
        return Collections.unmodifiableMap(uids);
    }
}
