package dev.watchkeeper.test.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.watchkeeper.internal.reconcile.Reconciler;
import dev.watchkeeper.internal.watch.Watcher;
import dev.watchkeeper.internal.watch.http.HttpWatchApi;
import dev.watchkeeper.reconcile.ReconcileContext;
import dev.watchkeeper.internal.reconcile.ReconcileOutcome;
import dev.watchkeeper.reconcile.ReconcileResult;
import dev.watchkeeper.reconcile.ReconcilerSnapshot;
import dev.watchkeeper.internal.resource.ResourceType;
import dev.watchkeeper.test.VirtualTime;
import dev.watchkeeper.test.apiserver.InMemoryApiServer;
import dev.watchkeeper.watch.WatchEvent;
import dev.watchkeeper.internal.watch.WatchScope;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1Secret;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A write answered 429 with {@code Retry-After} over HTTP holds the reconciler's key for that long: an event of an
 * owned object inside the wait does not run the reconcile sooner; it runs when the wait ends, and sees the change.
 * The reconciler's clock is virtual, paused at its start, so "not sooner" is exact, not a race with a timer.
 */
@Timeout(20)
class RetryAfterHoldTest {

    private final InMemoryApiServer server = new InMemoryApiServer().start();
    private final ApiClient client = server.apiClient();
    private final VirtualTime time = new VirtualTime();
    private final Watcher<V1ConfigMap> configMaps = HttpWatchApi.watcher(client, ResourceType.of(V1ConfigMap.class))
            .scope(WatchScope.namespace("default")).build();
    private final Watcher<V1Secret> secrets = HttpWatchApi.watcher(client, ResourceType.of(V1Secret.class))
            .scope(WatchScope.namespace("default")).build();
    private final List<ReconcileOutcome> outcomes = new CopyOnWriteArrayList<>();
    private final List<Integer> ownedSeen = new CopyOnWriteArrayList<>();
    private Reconciler<V1ConfigMap> reconciler;

    @AfterEach
    void close() {
        if (reconciler != null) {
            reconciler.close(Duration.ofSeconds(1));
        }
        configMaps.close();
        secrets.close();
        server.close();
    }

    @Test
    void anOwnedObjectsEventInsideTheServersRetryAfterIsHandledWhenItEnds() throws Exception {
        time.pauseAt(Duration.ZERO);
        V1ConfigMap parent = server.create(new V1ConfigMap().metadata(new V1ObjectMeta().namespace("default")
                .name("parent")));
        reconciler = Reconciler.builder("holder", configMaps, (V1ConfigMap object, ReconcileContext context) -> {
            ownedSeen.add(context.owned(V1Secret.class).size());
            if (ownedSeen.size() == 1) {
                // the stores are ready once listed: wait for both watches, so that the next request, the one that
                // gets 429, is this reconcile's write
                await().until(() -> server.openWatches() == 2);
                server.throttle(1, Duration.ofSeconds(1));
            }
            context.applyOwned(new V1Secret().metadata(new V1ObjectMeta().namespace("default")
                    .name("parent-data")).stringData(Map.of("k", "v")));
            return ReconcileResult.done();
        }).owns(secrets).apiClient(client).timeSource(time).listener(outcomes::add).build();
        configMaps.start();
        secrets.start();
        reconciler.start();
        await().until(() -> outcomes.size() == 1);
        assertThat(outcomes.get(0).kind()).isEqualTo(ReconcileOutcome.Kind.ERROR);
        assertThat(outcomes.get(0).next()).as("the server's Retry-After").isEqualTo(Duration.ofSeconds(1));
        CountDownLatch delivered = new CountDownLatch(1);
        secrets.addListener(event -> { // called after the reconciler's listener, which subscribed first
            if (event instanceof WatchEvent.Apply<V1Secret>) {
                delivered.countDown();
            }
        });

        server.create(new V1Secret().metadata(new V1ObjectMeta().namespace("default").name("made-by-hand")
                .ownerReferences(List.of(new V1OwnerReference().apiVersion("v1").kind("ConfigMap").name("parent")
                        .uid(parent.getMetadata().getUid()).controller(true)))));

        assertThat(delivered.await(5, TimeUnit.SECONDS)).isTrue();
        await().until(() -> reconciler.snapshot().inFlight() == 0);
        ReconcilerSnapshot held = reconciler.snapshot();
        assertThat(held.queueDepth()).as("not due: held").isZero();
        assertThat(held.scheduled()).as("kept, for when the hold ends").isEqualTo(1);
        assertThat(outcomes).hasSize(1);

        time.advance(Duration.ofSeconds(1));

        await().until(() -> outcomes.size() == 2);
        assertThat(outcomes.get(1).kind()).isEqualTo(ReconcileOutcome.Kind.DONE);
        assertThat(ownedSeen).as("the held reconcile sees the owned object that arrived meanwhile")
                .containsExactly(0, 1);
        assertThat(server.get(V1Secret.class, "default", "parent-data")).isPresent();
    }
}
