package dev.watchkeeper.bench;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
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
import dev.watchkeeper.internal.resource.ResourceType;
import dev.watchkeeper.test.controlplane.KubeControlPlane;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.opentest4j.TestAbortedException;

/**
 * Read your own writes on the real control plane: what the fence costs and what it prevents. A reconciler writes a
 * child ConfigMap and its object's status on every reconcile; for each of {@code objects} objects at once a driver
 * changes the spec and waits until the status shows the change, {@code changes} times in a row, and also requeues the
 * key right after each reconcile (so the next reconcile is due before the watch can have brought the write). Rounds
 * with the fence off and on (its default timeout), interleaved: time from a spec change to the status showing it
 * (median, p99), reconciles handed an object older than their own last status write, 409 answers, and the fence's
 * waits and timeouts.
 */
final class Freshness {

    private static final String GROUP = "bench.watchkeeper.dev";
    private static final String PLURAL = "gizmos";

    private final int objects;
    private final int changes;
    private final int rounds;

    Freshness(int objects, int changes, int rounds) {
        this.objects = objects;
        this.changes = changes;
        this.rounds = rounds;
    }

    /** One run's figures. */
    private record Result(String fence, List<Double> latenciesMillis, int reconciles, int staleReads, int conflicts,
            ReconcilerSnapshot.ReadYourWrites snapshot) {

        /** The rounds of one mode as one: their latencies together, their counts summed. */
        static Result merge(List<Result> rounds) {
            List<Double> latencies = new ArrayList<>();
            rounds.forEach(round -> latencies.addAll(round.latenciesMillis()));
            ReconcilerSnapshot.ReadYourWrites fence = rounds.get(0).snapshot() == null ? null
                    : new ReconcilerSnapshot.ReadYourWrites(rounds.get(0).snapshot().timeout(), 0,
                            rounds.stream().mapToLong(round -> round.snapshot().waits()).sum(),
                            rounds.stream().mapToLong(round -> round.snapshot().timeouts()).sum());
            return new Result(rounds.get(0).fence(), latencies,
                    rounds.stream().mapToInt(Result::reconciles).sum(),
                    rounds.stream().mapToInt(Result::staleReads).sum(),
                    rounds.stream().mapToInt(Result::conflicts).sum(), fence);
        }

        double percentile(double p) {
            List<Double> sorted = new ArrayList<>(latenciesMillis);
            Collections.sort(sorted);
            return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p * sorted.size()) - 1));
        }
    }

    void run() throws Exception {
        KubeControlPlane plane;
        try {
            plane = KubeControlPlane.shared();
        } catch (TestAbortedException e) {
            System.out.printf("%nRead your own writes skipped: %s%n", e.getMessage());
            return;
        }
        Path crd = Files.createTempFile("gizmos-", ".yaml");
        Files.writeString(crd, """
                apiVersion: apiextensions.k8s.io/v1
                kind: CustomResourceDefinition
                metadata: {name: gizmos.bench.watchkeeper.dev}
                spec:
                  group: bench.watchkeeper.dev
                  scope: Namespaced
                  names: {plural: gizmos, singular: gizmo, kind: Gizmo, listKind: GizmoList}
                  versions:
                  - name: v1
                    served: true
                    storage: true
                    subresources: {status: {}}
                    schema:
                      openAPIV3Schema:
                        type: object
                        properties:
                          spec: {type: object, x-kubernetes-preserve-unknown-fields: true}
                          status: {type: object, x-kubernetes-preserve-unknown-fields: true}
                """);
        plane.kubectl("apply", "-f", crd.toString());
        plane.kubectl("wait", "--for=condition=Established", "crd/gizmos." + GROUP, "--timeout=60s");
        Progress.say("read your own writes: %d objects × %d changes, fence off and on, %d rounds each", objects,
                changes, rounds);
        Duration fence = Duration.parse("PT" + ReconcilerSettings.DEFAULT_READ_YOUR_WRITES_TIMEOUT);
        List<Result> on = new ArrayList<>();
        List<Result> off = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) { // interleaved, so warm-up and a busy machine hit both alike
            off.add(run(plane, "off", "fresh-off-" + round, Duration.ZERO));
            on.add(run(plane, "on", "fresh-on-" + round, fence));
        }
        List<Result> results = List.of(Result.merge(on), Result.merge(off));
        Table table = new Table(String.format("Read your own writes — %d objects × %d spec changes each, a child and a "
                + "status write per reconcile, concurrency 8, real control plane; %d rounds each, interleaved", objects, changes,
                rounds),
                "fence", "change → status p50", "p99", "reconciles", "stale reads", "409s", "waits", "timeouts");
        for (Result result : results) {
            table.row(result.fence(), String.format("%.1f ms", result.percentile(0.5)),
                    String.format("%.1f ms", result.percentile(0.99)), result.reconciles(), result.staleReads(),
                    result.conflicts(), result.snapshot() == null ? "–" : result.snapshot().waits(),
                    result.snapshot() == null ? "–" : result.snapshot().timeouts());
        }
        table.print();
    }

    private Result run(KubeControlPlane plane, String fence, String namespace, Duration timeout) throws Exception {
        plane.kubectl("create", "namespace", namespace);
        AtomicInteger conflicts = new AtomicInteger();
        ApiClient client = plane.apiClient();
        client.setHttpClient(client.getHttpClient().newBuilder().addInterceptor(chain -> {
            okhttp3.Response response = chain.proceed(chain.request());
            if (response.code() == 409) {
                conflicts.incrementAndGet();
            }
            return response;
        }).build());
        WatchkeeperSettings settings = new WatchkeeperSettings() {
            @Override
            public ReconcilerSettings reconciler(String name, int annotationConcurrency, Duration debounce) {
                return ReconcilerSettings.defaults().withReadYourWritesTimeout(timeout);
            }
        };
        WatchkeeperRegistry registry = new WatchkeeperRegistry(
                new RegistryServices(client, null, settings, null, null, null, null));
        Map<String, String> lastStatusWrite = new ConcurrentHashMap<>();
        Map<String, AtomicLong> shown = new ConcurrentHashMap<>();
        AtomicInteger reconciles = new AtomicInteger();
        AtomicInteger staleReads = new AtomicInteger();
        try {
            Reconciler<DynamicKubernetesObject> reconciler = registry.registerReconciler(new ReconcilerDeclaration<>(
                    "gizmos-" + fence, WatcherSpec.of(ResourceType.dynamic(GROUP, "v1", PLURAL, true)),
                    List.of(SecondaryDeclaration.owned(WatcherSpec.of(V1ConfigMap.class))),
                    (gizmo, context) -> {
                        reconciles.incrementAndGet();
                        String name = gizmo.getMetadata().getName();
                        String last = lastStatusWrite.get(name);
                        if (last != null && !ResourceVersions.isAtLeast(gizmo.getMetadata().getResourceVersion(),
                                last)) {
                            staleReads.incrementAndGet();
                        }
                        long size = gizmo.getRaw().getAsJsonObject("spec").get("size").getAsLong();
                        context.applyOwned(new V1ConfigMap().metadata(new V1ObjectMeta().namespace(namespace)
                                .name(name + "-child")).data(Map.of("size", String.valueOf(size))));
                        DynamicKubernetesObject written = context.updateStatus(gizmo, copy -> {
                            JsonObject status = new JsonObject();
                            status.addProperty("size", size);
                            copy.getRaw().add("status", status);
                        });
                        lastStatusWrite.merge(name, written.getMetadata().getResourceVersion(),
                                (old, now) -> ResourceVersions.isAtLeast(now, old) ? now : old);
                        AtomicLong seen = shown.get(name);
                        synchronized (seen) {
                            seen.set(Math.max(seen.get(), size));
                            seen.notifyAll();
                        }
                        return size < changes ? ReconcileResult.requeueAfter(Duration.ZERO) : ReconcileResult.done();
                    }, 8, Set.of(Trigger.ALL), null, "benchmark", null, List.of(namespace), null));
            registry.start();
            DynamicKubernetesApi api = new DynamicKubernetesApi(GROUP, "v1", PLURAL, plane.apiClient());
            List<String> names = new ArrayList<>();
            for (int i = 0; i < objects; i++) {
                String name = "g" + i;
                names.add(name);
                shown.put(name, new AtomicLong(-1));
                api.create(new DynamicKubernetesObject(JsonParser.parseString("{\"apiVersion\":\"" + GROUP
                        + "/v1\",\"kind\":\"Gizmo\",\"metadata\":{\"name\":\"" + name + "\",\"namespace\":\""
                        + namespace + "\"},\"spec\":{\"size\":0}}").getAsJsonObject())).throwsApiException();
            }
            List<Double> latencies = Collections.synchronizedList(new ArrayList<>());
            GeneratorApi.forEach(names, objects, name -> {
                AtomicLong seen = shown.get(name);
                for (int change = 1; change <= changes; change++) {
                    long start = System.nanoTime();
                    api.patch(namespace, name, V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH,
                            new V1Patch("{\"spec\":{\"size\":" + change + "}}")).throwsApiException();
                    synchronized (seen) {
                        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                        while (seen.get() < change) {
                            long left = deadline - System.nanoTime();
                            if (left <= 0) {
                                throw new IllegalStateException(name + " never showed change " + change);
                            }
                            seen.wait(TimeUnit.NANOSECONDS.toMillis(left) + 1);
                        }
                    }
                    latencies.add((System.nanoTime() - start) / 1e6);
                }
            });
            return new Result(fence, latencies, reconciles.get(), staleReads.get(), conflicts.get(),
                    reconciler.snapshot().readYourWrites());
        } finally {
            registry.stop();
            plane.kubectl("delete", "namespace", namespace, "--wait=false");
        }
    }
}
