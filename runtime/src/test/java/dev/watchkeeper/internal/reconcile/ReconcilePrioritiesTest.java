package dev.watchkeeper.internal.reconcile;

import static dev.watchkeeper.reconcile.TestObjects.configMap;
import static dev.watchkeeper.reconcile.TestObjects.secretOwnedBy;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.watchkeeper.reconcile.FakeWatchApi;
import dev.watchkeeper.reconcile.ManualTime;
import dev.watchkeeper.reconcile.ReconcileResult;
import dev.watchkeeper.reconcile.ReconcilerSnapshot;
import dev.watchkeeper.internal.resource.ResourceType;
import dev.watchkeeper.store.ObjectKey;
import dev.watchkeeper.internal.watch.Watcher;
import dev.watchkeeper.watch.WatchEvent;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Secret;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A reconciler's priorities (list and resync keys after live changes) and the hold of a server's Retry-After. */
@Timeout(10)
class ReconcilePrioritiesTest {

    private static final ResourceType<V1ConfigMap> CONFIG_MAPS =
            ResourceType.of(V1ConfigMap.class).withPlural("configmaps", true);
    private static final ResourceType<V1Secret> SECRETS = ResourceType.of(V1Secret.class).withPlural("secrets", true);
    private static final int LISTED = 50;

    @BeforeAll
    static void pollQuickly() {
        Awaitility.setDefaultPollInterval(Duration.ofMillis(5));
    }

    private final FakeWatchApi<V1ConfigMap> configMapApi = new FakeWatchApi<>(CONFIG_MAPS);
    private final Watcher<V1ConfigMap> configMaps = Watcher.builder(configMapApi, CONFIG_MAPS).build();
    private final List<Watcher<?>> watchers = new ArrayList<>(List.of(configMaps));
    private final List<Reconciler<?>> reconcilers = new ArrayList<>();
    private final List<String> reconciled = new CopyOnWriteArrayList<>();
    private final List<ReconcileOutcome> outcomes = new CopyOnWriteArrayList<>();

    @AfterEach
    void closeEverything() {
        reconcilers.forEach(r -> r.close(Duration.ofSeconds(1)));
        watchers.forEach(Watcher::close);
    }

    @Test
    void anObjectCreatedDuringARestartsBacklogIsReconciledBeforeTheListedOnes() throws Exception {
        Reconciler<V1ConfigMap> reconciler = backlogWithANewObject(ReconcilerSettings.defaults().withConcurrency(1));

        assertThat(reconciled.indexOf("new")).as("right after the reconcile that was running").isEqualTo(1);
        assertThat(reconciler.snapshot().queueByPriority()).isEqualTo(new ReconcilerSnapshot.QueueByPriority(0, 0));
    }

    @Test
    void withoutPrioritiesTheNewObjectWaitsBehindTheBacklog() throws Exception {
        backlogWithANewObject(ReconcilerSettings.defaults().withConcurrency(1).withMaxLowPriorityWait(Duration.ZERO));

        assertThat(reconciled.indexOf("new")).isEqualTo(LISTED);
    }

    /** Lists {@value #LISTED} objects, creates another while the first reconcile runs, and waits for all. */
    private Reconciler<V1ConfigMap> backlogWithANewObject(ReconcilerSettings settings) throws Exception {
        configMapApi.listing(IntStream.range(0, LISTED).mapToObj(i -> configMap("listed-" + i, "1"))
                .toArray(V1ConfigMap[]::new));
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Reconciler<V1ConfigMap> reconciler = start(Reconciler.builder("test", configMaps, (object, context) -> {
            reconciled.add(object.getMetadata().getName());
            running.countDown();
            release.await();
            return ReconcileResult.done();
        }).settings(settings));
        assertThat(running.await(5, TimeUnit.SECONDS)).isTrue();
        boolean priorities = !settings.maxLowPriorityWait().isZero();
        await().until(() -> reconciler.queueDepth() == LISTED - 1);
        assertThat(reconciler.snapshot().queueByPriority()).as("the list's keys wait at low priority").isEqualTo(
                priorities ? new ReconcilerSnapshot.QueueByPriority(0, LISTED - 1)
                        : new ReconcilerSnapshot.QueueByPriority(LISTED - 1, 0));
        assertThat(reconciler.lowPriorityQueueDepth()).isEqualTo(priorities ? LISTED - 1 : 0);

        configMapApi.apply(configMap("new", "2"));
        await().until(() -> reconciler.queueDepth() == LISTED);
        if (priorities) {
            assertThat(reconciler.snapshot().queueByPriority()).isEqualTo(
                    new ReconcilerSnapshot.QueueByPriority(1, LISTED - 1));
        }
        release.countDown();
        await().until(() -> reconciled.size() == LISTED + 1);
        return reconciler;
    }

    @Test
    void anOwnedObjectsEventInsideARetryAfterWaitsForItAndIsHandledThen() throws Exception {
        ManualTime time = new ManualTime();
        Instant t0 = time.clock().instant();
        ObjectKey a = new ObjectKey("default", "a");
        configMapApi.listing(configMap("a", "1"));
        FakeWatchApi<V1Secret> secretApi = new FakeWatchApi<>(SECRETS);
        Watcher<V1Secret> secrets = Watcher.builder(secretApi, SECRETS).build();
        watchers.add(secrets);
        Reconciler<V1ConfigMap> reconciler = start(Reconciler.builder("test", configMaps, (object, context) -> {
            reconciled.add(object.getMetadata().getName());
            if (reconciled.size() == 1) {
                throw new IllegalStateException("the write failed", new ApiException(429,
                        Map.of("Retry-After", List.of("1")), "{\"kind\":\"Status\",\"code\":429}"));
            }
            return ReconcileResult.done();
        }).owns(secrets).timeSource(time).listener(outcomes::add));
        await().until(() -> outcomes.size() == 1);
        CountDownLatch seen = new CountDownLatch(1);
        secrets.addListener(event -> { // after the reconciler's listener, which subscribed first
            if (event instanceof WatchEvent.Apply<V1Secret>) {
                seen.countDown();
            }
        });

        secretApi.apply(secretOwnedBy("child", "a", true)); // inside the second the server asked for

        assertThat(seen.await(5, TimeUnit.SECONDS)).isTrue();
        await().until(() -> reconciler.queue().inFlight() == 0); // its failed reconcile is done
        assertThat(reconciler.queue().dueAt(a)).as("held to the Retry-After").isEqualTo(t0.plusSeconds(1));
        assertThat(reconciled).containsExactly("a");

        time.advance(Duration.ofSeconds(1));
        await().until(() -> reconciled.size() == 2);
        assertThat(outcomes.get(1).kind()).isEqualTo(ReconcileOutcome.Kind.DONE);
    }

    private Reconciler<V1ConfigMap> start(ReconcilerBuilder<V1ConfigMap> builder) {
        Reconciler<V1ConfigMap> reconciler = builder.build();
        reconcilers.add(reconciler);
        watchers.forEach(Watcher::start);
        reconciler.start();
        return reconciler;
    }
}
