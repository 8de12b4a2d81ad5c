package dev.watchkeeper.internal.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.watchkeeper.reconcile.Dependent;
import dev.watchkeeper.reconcile.Dependents;
import dev.watchkeeper.reconcile.DependentsResult;
import dev.watchkeeper.reconcile.DependentsResult.Phase;
import dev.watchkeeper.reconcile.ExternalResource;
import dev.watchkeeper.reconcile.ManualTime;
import dev.watchkeeper.reconcile.ReconcileContext;
import dev.watchkeeper.reconcile.ReconcilerSnapshot;
import dev.watchkeeper.internal.resource.ResourceType;
import dev.watchkeeper.store.ObjectKey;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * External dependents: a resource outside Kubernetes made, kept, changed and deleted through its
 * {@link ExternalResource}, deleted last-first by {@code deleteDependents}, and polled between reconciles.
 */
class ExternalDependentsTest {

    private static final ObjectKey KEY = new ObjectKey("ns", "app");

    /** A bucket per primary name, with its size; the fake outside world the tests change behind the reconciler. */
    record Bucket(String name, int size) {
    }

    private final Map<String, Bucket> buckets = new ConcurrentHashMap<>();
    private final List<String> calls = new CopyOnWriteArrayList<>();
    private final ManualTime time = new ManualTime();
    private final DependentStats stats = new DependentStats();
    private ExternalPolls polls;

    @AfterEach
    void close() {
        if (polls != null) {
            polls.close();
        }
    }

    private ExternalResource<V1ConfigMap, Bucket> buckets(String prefix) {
        return new ExternalResource<>() {
            @Override
            public Bucket desired(V1ConfigMap primary, ReconcileContext context) {
                String size = primary.getData() == null ? null : primary.getData().get("size");
                return size == null ? null : new Bucket(prefix + primary.getMetadata().getName(), Integer.parseInt(size));
            }

            @Override
            public Optional<Bucket> fetch(V1ConfigMap primary) {
                calls.add("fetch " + prefix);
                return Optional.ofNullable(buckets.get(prefix + primary.getMetadata().getName()));
            }

            @Override
            public Bucket create(V1ConfigMap primary, Bucket desired, ReconcileContext context) throws IOException {
                if (desired.size() < 0) {
                    throw new IOException("no bucket of size " + desired.size());
                }
                calls.add("create " + desired.name());
                buckets.put(desired.name(), desired);
                return desired;
            }

            @Override
            public Bucket update(V1ConfigMap primary, Bucket actual, Bucket desired, ReconcileContext context) {
                calls.add("update " + desired.name());
                buckets.put(desired.name(), desired);
                return desired;
            }

            @Override
            public void delete(V1ConfigMap primary, ReconcileContext context) {
                calls.add("delete " + prefix + primary.getMetadata().getName());
                buckets.remove(prefix + primary.getMetadata().getName());
            }
        };
    }

    private static V1ConfigMap primary(String size) {
        return new V1ConfigMap().metadata(new V1ObjectMeta().namespace("ns").name("app").uid("u1"))
                .data(size == null ? Map.of() : Map.of("size", size));
    }

    private DefaultReconcileContext context(V1ConfigMap primary) {
        return new DefaultReconcileContext("buckets", KEY, 1, null, ResourceType.of(V1ConfigMap.class), primary,
                Map.of(), null, time, new OwnWrites(), null, WriteBudget.none(), stats, polls);
    }

    @Test
    void anAbsentResourceIsCreatedAMatchingOneLeftAloneADifferentOneUpdatedAndAnUndesiredOneDeleted() throws Exception {
        Dependents<V1ConfigMap> dependents = Dependents.of(V1ConfigMap.class,
                Dependent.external("bucket", Bucket.class, buckets("b-")));

        DependentsResult created = context(primary("1")).reconcileDependents(dependents);
        assertThat(created.state("bucket").orElseThrow()).satisfies(state -> {
            assertThat(state.phase()).isEqualTo(Phase.READY);
            assertThat(state.applied()).isEqualTo(1);
        });
        assertThat(created.external("bucket", Bucket.class)).contains(new Bucket("b-app", 1));

        DependentsResult kept = context(primary("1")).reconcileDependents(dependents);
        assertThat(kept.state("bucket").orElseThrow().unchanged()).isEqualTo(1);

        context(primary("2")).reconcileDependents(dependents);
        assertThat(buckets).containsEntry("b-app", new Bucket("b-app", 2));

        DependentsResult gone = context(primary(null)).reconcileDependents(dependents);
        assertThat(gone.state("bucket").orElseThrow().deleted()).isEqualTo(1);
        assertThat(gone.external("bucket", Bucket.class)).isEmpty();
        assertThat(calls).containsExactly("fetch b-", "create b-app", "fetch b-", "fetch b-", "update b-app",
                "fetch b-", "delete b-app");

        ReconcilerSnapshot.DependentSnapshot snapshot = stats.snapshot(key -> true).get(0);
        assertThat(snapshot.kind()).isEqualTo("external Bucket");
        assertThat(List.of(snapshot.applied(), snapshot.unchanged(), snapshot.deleted(), snapshot.failures()))
                .containsExactly(2L, 1L, 1L, 0L);
    }

    @Test
    void aCheckedFailureNamesTheDependentBlocksThoseAfterItAndIsShownAsHoldingTheKey() {
        Dependents<V1ConfigMap> dependents = Dependents.of(V1ConfigMap.class,
                Dependent.external("bucket", Bucket.class, buckets("b-")),
                Dependent.external("mirror", Bucket.class, buckets("m-")).dependsOn("bucket"),
                Dependent.external("spare", Bucket.class, buckets("s-")));

        assertThatThrownBy(() -> context(primary("-1")).reconcileDependents(dependents))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("dependent bucket: java.io.IOException: no bucket of size -1")
                .hasCauseInstanceOf(IOException.class);
        assertThat(calls).doesNotContain("fetch m-").contains("fetch s-");

        List<ReconcilerSnapshot.DependentSnapshot> snapshots = stats.snapshot(key -> true);
        assertThat(snapshots).extracting(ReconcilerSnapshot.DependentSnapshot::name)
                .containsExactly("bucket", "mirror", "spare");
        assertThat(snapshots.get(0).failures()).isEqualTo(1);
        assertThat(snapshots.get(0).held()).containsExactly(new ReconcilerSnapshot.HeldKey("ns/app", "failed",
                "java.io.IOException: no bucket of size -1"));
        assertThat(stats.snapshot(key -> false).get(0).held()).as("a deleted primary's key is not shown").isEmpty();
    }

    @Test
    void deleteDependentsDeletesEachResourceLastFirstAndStopsPolling() throws Exception {
        startPolls(new AtomicReference<>(primary("1")), new CopyOnWriteArrayList<>());
        Dependents<V1ConfigMap> dependents = Dependents.of(V1ConfigMap.class,
                Dependent.external("bucket", Bucket.class, buckets("b-")).pollEvery(Duration.ofSeconds(10)),
                Dependent.external("mirror", Bucket.class, buckets("m-")).dependsOn("bucket"));
        context(primary("1")).reconcileDependents(dependents);
        assertThat(polls.polled()).isEqualTo(1);
        calls.clear();

        context(primary("1")).deleteDependents(dependents);

        assertThat(calls).containsExactly("delete m-app", "delete b-app");
        assertThat(buckets).isEmpty();
        assertThat(polls.polled()).isZero();
    }

    @Test
    void aPollThatFindsTheResourceChangedQueuesTheKeyAndAFailedPollIsTriedAgainAfterADoublingDelay() throws Exception {
        AtomicReference<V1ConfigMap> stored = new AtomicReference<>(primary("1"));
        List<ObjectKey> queued = new CopyOnWriteArrayList<>();
        startPolls(stored, queued);
        AtomicInteger failing = new AtomicInteger();
        ExternalResource<V1ConfigMap, Bucket> flaky = new DelegatingBuckets(buckets("b-"), failing);
        Dependent<V1ConfigMap, Bucket> bucket = Dependent.external("bucket", Bucket.class, flaky)
                .pollEvery(Duration.ofSeconds(10));
        context(stored.get()).reconcileDependents(Dependents.of(V1ConfigMap.class, bucket));
        calls.clear();

        // Unchanged: polled every 10 s, nothing queued.
        time.advance(Duration.ofSeconds(10));
        await().until(() -> calls.size() == 1);
        assertThat(queued).isEmpty();

        // Someone deletes the bucket behind the reconciler: the next poll sees it and queues the key, once.
        buckets.clear();
        time.advance(Duration.ofSeconds(10));
        await().until(() -> queued.size() == 1);
        assertThat(queued).containsExactly(KEY);

        // Two failed polls: the next after 20 s, then after 40 s, not at the interval.
        failing.set(2);
        time.advance(Duration.ofSeconds(10));
        await().until(() -> calls.size() == 3);
        time.advance(Duration.ofSeconds(19));
        assertThat(calls).hasSize(3);
        assertThat(stats.snapshot(key -> true).get(0).pollFailures()).isEqualTo(1);
        time.advance(Duration.ofSeconds(1));
        await().until(() -> calls.size() == 4);
        time.advance(Duration.ofSeconds(39));
        assertThat(calls).hasSize(4);
        time.advance(Duration.ofSeconds(1));
        await().until(() -> calls.size() == 5);
        assertThat(stats.snapshot(key -> true).get(0)).satisfies(snapshot -> {
            assertThat(snapshot.pollFailures()).isEqualTo(2);
            assertThat(snapshot.polls()).isEqualTo(5);
            assertThat(snapshot.pollInterval()).isEqualTo(Duration.ofSeconds(10));
        });
        assertThat(queued).as("the failures queued nothing, and the bucket is still gone").hasSize(1);

        // The primary is gone from the store: its poll ends.
        stored.set(null);
        time.advance(Duration.ofSeconds(10));
        await().until(() -> polls.polled() == 0);
    }

    @Test
    void theDelayDoublesPerFailureUpToFiveMinutes() {
        assertThat(ExternalPolls.delay(Duration.ofSeconds(1), 1)).isEqualTo(Duration.ofSeconds(2));
        assertThat(ExternalPolls.delay(Duration.ofSeconds(1), 3)).isEqualTo(Duration.ofSeconds(8));
        assertThat(ExternalPolls.delay(Duration.ofSeconds(1), 40)).isEqualTo(Duration.ofMinutes(5));
        assertThat(ExternalPolls.delay(Duration.ofMinutes(7), 1)).isEqualTo(Duration.ofMinutes(5));
    }

    @Test
    void onlyAnExternalDependentIsPolled() {
        assertThatThrownBy(() -> Dependent.of("cm", V1ConfigMap.class, (V1ConfigMap p, ReconcileContext c) -> p)
                .pollEvery(Duration.ofSeconds(1))).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("its watcher sees its changes");
        assertThatThrownBy(() -> Dependent.external("b", Bucket.class, buckets("b-")).pollEvery(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private void startPolls(AtomicReference<V1ConfigMap> stored, List<ObjectKey> queued) {
        polls = new ExternalPolls("buckets", time, Thread::new, key -> stored.get(), queued::add, stats);
    }

    /** Fetches through {@code delegate}, failing while {@code failing} is above zero (counting it down). */
    private record DelegatingBuckets(ExternalResource<V1ConfigMap, Bucket> delegate, AtomicInteger failing)
            implements ExternalResource<V1ConfigMap, Bucket> {

        @Override
        public Bucket desired(V1ConfigMap primary, ReconcileContext context) {
            return delegate.desired(primary, context);
        }

        @Override
        public Optional<Bucket> fetch(V1ConfigMap primary) throws Exception {
            Optional<Bucket> fetched = delegate.fetch(primary);
            if (failing.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                throw new IOException("the bucket service is down");
            }
            return fetched;
        }

        @Override
        public Bucket create(V1ConfigMap primary, Bucket desired, ReconcileContext context) throws Exception {
            return delegate.create(primary, desired, context);
        }

        @Override
        public void delete(V1ConfigMap primary, ReconcileContext context) throws Exception {
            delegate.delete(primary, context);
        }
    }
}
