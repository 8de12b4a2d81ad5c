package dev.watchkeeper.test.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.gson.JsonObject;
import dev.watchkeeper.internal.api.ResourceVersions;
import dev.watchkeeper.internal.reconcile.Reconciler;
import dev.watchkeeper.internal.registry.RegistryServices;
import dev.watchkeeper.internal.registry.WatchkeeperRegistry;
import dev.watchkeeper.reconcile.ReconcileResult;
import dev.watchkeeper.internal.reconcile.ReconcilerSettings;
import dev.watchkeeper.reconcile.ReconcilerSnapshot;
import dev.watchkeeper.reconcile.Trigger;
import dev.watchkeeper.internal.registry.ReconcilerDeclaration;
import dev.watchkeeper.internal.registry.SecondaryDeclaration;
import dev.watchkeeper.internal.registry.WatcherSpec;
import dev.watchkeeper.internal.registry.WatchkeeperSettings;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The read-your-own-writes fence on a real watch (one subclass per kind of server): a reconciler that writes a child
 * and its object's status on every reconcile, driven by a burst of spec changes from another client, each landing
 * while a reconcile of the object runs (the worst case of a burst: the key is due again the moment the reconcile that
 * wrote ends, before the watch can have delivered that write). With the fence,
 * no reconcile is handed an object older than the reconciler's own last write of it, and no write is refused with 409
 * for testing such a version; with the fence off, the same burst shows both, so the fence is what prevents them.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ReadYourWritesScenarios {

    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final int OBJECTS = 8;
    private static final int CHANGES = 6;
    /** How far the reconciler's watches lag behind the answers to its writes, as on a loaded cluster. */
    private static final Duration WATCH_LAG = Duration.ofSeconds(1);
    /** How far apart the reconciler's watch events reach its cache at least. */
    private static final Duration EVENT_SPACING = Duration.ofMillis(5);

    /** The server of this run. */
    abstract ServerUnderTest server();

    /** One burst: reconciles handed a copy older than their own last write, and 409s for writing from one. */
    private record Run(int reconciles, int staleReads, int staleConflicts, ReconcilerSnapshot.ReadYourWrites fence) {
    }

    @Test
    void withTheFenceNoReconcileReadsAnOlderCopyThanItsOwnLastWriteAndWithoutItSomeDo() throws Exception {
        CustomResources gizmos = new CustomResources(server().apiClient(), "gizmos", "Gizmo");
        gizmos.define();
        try {
            Run fenced = burst(gizmos, "fenced", Duration.ofSeconds(30));
            Run unfenced = burst(gizmos, "unfenced", Duration.ZERO);

            assertThat(fenced.staleReads()).as("stale reads with the fence, %s", fenced).isZero();
            assertThat(fenced.staleConflicts()).as("stale-write 409s with the fence, %s", fenced).isZero();
            assertThat(fenced.fence().waits()).as("the fence held keys back, %s", fenced).isPositive();
            assertThat(fenced.fence().timeouts()).as("every wait ended by the version arriving, %s", fenced).isZero();
            assertThat(unfenced.staleReads()).as("stale reads without the fence, %s", unfenced).isPositive();
            assertThat(unfenced.staleConflicts()).as("stale-write 409s without the fence, %s", unfenced).isPositive();
            assertThat(unfenced.fence()).isNull();
        } finally {
            gizmos.undefine();
        }
    }

    private Run burst(CustomResources gizmos, String run, Duration fenceTimeout) throws Exception {
        String namespace = server().namespace();
        WrittenVersions written = new WrittenVersions("gizmos");
        WatchkeeperSettings settings = new WatchkeeperSettings() {
            @Override
            public ReconcilerSettings reconciler(String name, int annotationConcurrency, Duration debounce) {
                return ReconcilerSettings.defaults().withConcurrency(4).withReadYourWritesTimeout(fenceTimeout);
            }
        };
        WatchkeeperRegistry registry = new WatchkeeperRegistry(new RegistryServices(
                new LaggingWatches(WATCH_LAG, EVENT_SPACING).attachTo(written.attachTo(server().apiClient())), null, settings, null,
                null, null, null));
        AtomicInteger reconciles = new AtomicInteger();
        AtomicInteger staleReads = new AtomicInteger();
        Map<String, AtomicInteger> changes = new ConcurrentHashMap<>();
        DynamicKubernetesApi other = gizmos.api();
        try {
            Reconciler<DynamicKubernetesObject> reconciler = registry.registerReconciler(new ReconcilerDeclaration<>(
                    "gizmos-" + run, WatcherSpec.of(gizmos.type()).labelSelector("run=" + run),
                    List.of(SecondaryDeclaration.owned(WatcherSpec.of(V1ConfigMap.class))),
                    (gizmo, context) -> {
                        reconciles.incrementAndGet();
                        String name = gizmo.getMetadata().getName();
                        String last = written.lastWritten(name);
                        if (last != null && !ResourceVersions.isAtLeast(gizmo.getMetadata().getResourceVersion(),
                                last)) {
                            staleReads.incrementAndGet();
                        }
                        int size = size(gizmo.getRaw().getAsJsonObject("spec"));
                        int change = changes.computeIfAbsent(name, n -> new AtomicInteger()).incrementAndGet();
                        if (change <= CHANGES) { // another client changes the spec while this reconcile runs
                            other.patch(namespace, name, V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH,
                                    new V1Patch("{\"spec\":{\"size\":" + change + "}}")).throwsApiException();
                        }
                        context.applyOwned(new V1ConfigMap().metadata(new V1ObjectMeta().namespace(namespace)
                                .name(name + "-child")).data(Map.of("size", String.valueOf(size))));
                        context.updateStatus(gizmo, copy -> {
                            JsonObject status = copy.getRaw().has("status") ? copy.getRaw().getAsJsonObject("status")
                                    : new JsonObject();
                            status.addProperty("size", size);
                            copy.getRaw().add("status", status);
                        });
                        // until the burst ends, also a requeue at once: due before the watch can bring these writes
                        return change < CHANGES ? ReconcileResult.requeueAfter(Duration.ZERO) : ReconcileResult.done();
                    }, 1, Set.of(Trigger.ALL), null, "test", null, List.of(namespace), null));
            registry.start();
            DynamicKubernetesApi api = gizmos.api();
            for (int i = 0; i < OBJECTS; i++) {
                DynamicKubernetesObject gizmo = gizmos.object(namespace, run + "-" + i, Map.of("size", 0));
                JsonObject labels = new JsonObject();
                labels.addProperty("run", run);
                gizmo.getRaw().getAsJsonObject("metadata").add("labels", labels);
                api.create(gizmo).throwsApiException();
            }
            CoreV1Api core = new CoreV1Api(server().apiClient());
            await().atMost(WAIT).ignoreExceptionsInstanceOf(ApiException.class).until(() -> { // 404 until made
                for (int i = 0; i < OBJECTS; i++) {
                    JsonObject status = api.get(namespace, run + "-" + i).throwsApiException().getObject().getRaw()
                            .getAsJsonObject("status");
                    V1ConfigMap child = core.readNamespacedConfigMap(run + "-" + i + "-child", namespace).execute();
                    if (status == null || size(status) != CHANGES
                            || !String.valueOf(CHANGES).equals(child.getData().get("size"))) {
                        return false;
                    }
                }
                return true;
            });
            return new Run(reconciles.get(), staleReads.get(), written.staleConflicts(),
                    reconciler.snapshot().readYourWrites());
        } finally {
            registry.stop();
        }
    }

    private static int size(JsonObject object) {
        return object != null && object.has("size") ? object.get("size").getAsInt() : -1;
    }
}
