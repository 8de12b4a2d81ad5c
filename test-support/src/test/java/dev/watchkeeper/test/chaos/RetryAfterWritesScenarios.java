package dev.watchkeeper.test.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import dev.watchkeeper.internal.reconcile.Reconciler;
import dev.watchkeeper.internal.watch.Watcher;
import dev.watchkeeper.internal.watch.http.HttpWatchApi;
import dev.watchkeeper.internal.reconcile.ReconcileOutcome;
import dev.watchkeeper.reconcile.ReconcileResult;
import dev.watchkeeper.reconcile.ReconcilerSnapshot;
import dev.watchkeeper.test.VirtualTime;
import dev.watchkeeper.test.conformance.CustomResources;
import dev.watchkeeper.internal.watch.WatchScope;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A reconcile whose status write is answered 429 with {@code Retry-After: 1} sends nothing more to its object until
 * the reconciler's clock has passed that second: not the failure's conditions (before, they were written 0.04-0.06 s
 * later), not a retry. Then the retry writes the status and the success's conditions. The clock is virtual and
 * paused, so "nothing until" is exact. Written once, run on each server behind its fault point.
 */
@Timeout(60)
abstract class RetryAfterWritesScenarios {

    /** A client whose requests pass the fault point. */
    abstract ApiClient client();

    /** A client around the fault point, for set-up. */
    abstract ApiClient directClient();

    abstract String namespace();

    /** The next request through the fault point is answered 429 with this {@code Retry-After}. */
    abstract void throttleNext(Duration retryAfter);

    abstract int openWatches();

    /** {@code METHOD path} of each request through the fault point so far. */
    abstract List<String> received();

    @Test
    void aThrottledStatusWriteSendsNothingToItsObjectBeforeTheNamedTime() throws Exception {
        CustomResources things = new CustomResources(directClient(), "throttledthings", "ThrottledThing");
        things.defineUnlessDefined();
        things.api().create(things.object(namespace(), "t1", Map.of("size", 1))).throwsApiException();
        String object = "/apis/conformance.watchkeeper.dev/v1/namespaces/" + namespace() + "/throttledthings/t1";
        VirtualTime time = new VirtualTime();
        time.pauseAt(Duration.ZERO);
        AtomicInteger attempts = new AtomicInteger();
        List<ReconcileOutcome> outcomes = new CopyOnWriteArrayList<>();
        Watcher<DynamicKubernetesObject> watcher = HttpWatchApi.watcher(client(), things.type())
                .scope(WatchScope.namespace(namespace())).build();
        Reconciler<DynamicKubernetesObject> reconciler = Reconciler.builder("throttled", watcher,
                (DynamicKubernetesObject thing, dev.watchkeeper.reconcile.ReconcileContext context) -> {
                    int attempt = attempts.incrementAndGet();
                    if (attempt == 1) {
                        await().until(() -> openWatches() == 1); // so that the next request is this write
                        throttleNext(Duration.ofSeconds(1));
                    }
                    context.updateStatus(thing, copy -> {
                        JsonObject status = new JsonObject();
                        status.addProperty("attempt", attempt);
                        copy.getRaw().add("status", status);
                    });
                    return ReconcileResult.done();
                }).apiClient(client()).timeSource(time).listener(outcomes::add).build();
        try {
            watcher.start();
            reconciler.start();
            await().until(() -> outcomes.size() == 1);
            assertThat(outcomes.get(0).kind()).isEqualTo(ReconcileOutcome.Kind.ERROR);
            assertThat(outcomes.get(0).next()).as("the server's Retry-After").isEqualTo(Duration.ofSeconds(1));
            await().until(() -> reconciler.snapshot().inFlight() == 0);
            ReconcilerSnapshot.FailingKey failing = reconciler.snapshot().failingKeys().get(0);
            assertThat(failing.retryAfter()).isEqualTo(Duration.ofSeconds(1));

            assertThat(requestsTo(object)).as("inside the wait: only the write that was answered 429")
                    .containsExactly("PUT " + object + "/status");

            time.advance(Duration.ofSeconds(1));

            await().until(() -> outcomes.size() == 2);
            assertThat(outcomes.get(1).kind()).isEqualTo(ReconcileOutcome.Kind.DONE);
            assertThat(requestsTo(object)).as("after it: the retry's status write, then the success's conditions")
                    .containsExactly("PUT " + object + "/status", "PUT " + object + "/status",
                            "PUT " + object + "/status");
            JsonObject status = things.api().get(namespace(), "t1").throwsApiException().getObject().getRaw()
                    .getAsJsonObject("status");
            assertThat(status.get("attempt").getAsInt()).isEqualTo(2);
            JsonArray conditions = status.getAsJsonArray("conditions");
            assertThat(conditions.asList()).anySatisfy(condition -> {
                assertThat(condition.getAsJsonObject().get("type").getAsString()).isEqualTo("Ready");
                assertThat(condition.getAsJsonObject().get("status").getAsString()).isEqualTo("True");
            });
        } finally {
            reconciler.close(Duration.ofSeconds(2));
            watcher.close();
            things.api().delete(namespace(), "t1");
        }
    }

    private List<String> requestsTo(String object) {
        return received().stream().filter(line -> line.endsWith(" " + object) || line.endsWith(" " + object + "/status"))
                .toList();
    }
}
