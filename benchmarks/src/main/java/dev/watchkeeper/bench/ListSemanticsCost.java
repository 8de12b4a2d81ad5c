package dev.watchkeeper.bench;

import dev.watchkeeper.internal.resource.ResolvedResource;
import dev.watchkeeper.internal.resource.ResourceType;
import dev.watchkeeper.test.controlplane.KubeControlPlane;
import dev.watchkeeper.internal.watch.ListPage;
import dev.watchkeeper.internal.watch.ListRequest;
import dev.watchkeeper.internal.watch.WatchOptions;
import dev.watchkeeper.internal.watch.WatchScope;
import dev.watchkeeper.internal.watch.http.HttpWatchApi;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Scenario 6: what each list a watcher sends costs a real kube-apiserver (the project's control plane), read from the
 * server's own {@code /metrics} around each full list of {@code objects} ConfigMaps: LIST requests, the server's
 * request duration and response bytes, and whether the watch cache or etcd served them. The list shapes are those of
 * {@code watchkeeper.watch.list-semantics}: {@code consistent} (paged, the most recent state), and {@code cached}'s
 * first list (any version) and relist (not older than the last synced version, unpaged).
 */
final class ListSemanticsCost {

    private static final String NAMESPACE = "list-semantics";
    private static final String RESOURCE = "resource=\"configmaps\"";

    private final int objects;
    private final int warmUps;
    private final int rounds;

    ListSemanticsCost(int objects, int warmUps, int rounds) {
        this.objects = objects;
        this.warmUps = warmUps;
        this.rounds = rounds;
    }

    void run() throws Exception {
        KubeControlPlane plane = KubeControlPlane.shared();
        ApiClient client = plane.apiClient();
        fill(client);
        HttpWatchApi<V1ConfigMap> api = new HttpWatchApi<>(client, ResourceType.of(V1ConfigMap.class),
                WatchScope.namespace(NAMESPACE), WatchOptions.defaults());
        ResolvedResource resource = api.resolve();
        String synced = api.list(resource, ListRequest.consistent()).resourceVersion();
        Map<String, ListRequest> shapes = new LinkedHashMap<>();
        shapes.put("consistent: rv unset, limit=500, continue", ListRequest.consistent());
        shapes.put("cached first list: rv=0, limit=500", ListRequest.anyVersion());
        shapes.put("cached relist: rv=<synced>, no limit", ListRequest.notOlderThan(synced, false));
        Map<String, Totals> totals = new LinkedHashMap<>();
        shapes.keySet().forEach(name -> totals.put(name, new Totals()));
        List<String> order = new ArrayList<>(shapes.keySet());
        for (int round = 0; round < warmUps + rounds; round++) {
            for (String name : order) {
                Metrics before = Metrics.scrape(client);
                long start = System.nanoTime();
                int items = fullList(api, resource, shapes.get(name));
                double millis = (System.nanoTime() - start) / 1e6;
                Metrics after = Metrics.scrape(client);
                if (items != objects) {
                    throw new IllegalStateException(name + " listed " + items + " of " + objects + " objects");
                }
                if (round >= warmUps) {
                    totals.get(name).add(after.minus(before), millis);
                }
            }
            order.add(order.remove(0));
            Progress.say("list-semantics round %d/%d", round + 1, warmUps + rounds);
        }
        print(totals);
    }

    private void fill(ApiClient client) throws Exception {
        CoreV1Api core = new CoreV1Api(client);
        try {
            core.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(NAMESPACE))).execute();
        } catch (ApiException e) {
            if (e.getCode() != 409) {
                throw e;
            }
        }
        int present = core.listNamespacedConfigMap(NAMESPACE).execute().getItems().size();
        java.util.Random random = new java.util.Random(6);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> created = new ArrayList<>();
            for (int i = present; i < objects; i++) {
                byte[] bytes = new byte[600];
                random.nextBytes(bytes);
                V1ConfigMap configMap = new V1ConfigMap().metadata(new V1ObjectMeta().name("cm-" + i)
                        .putLabelsItem("app", "list-semantics"))
                        .data(Map.of("value", java.util.Base64.getEncoder().encodeToString(bytes)));
                created.add(pool.submit(() -> core.createNamespacedConfigMap(NAMESPACE, configMap).execute()));
            }
            for (Future<?> future : created) {
                future.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static int fullList(HttpWatchApi<V1ConfigMap> api, ResolvedResource resource, ListRequest request)
            throws Exception {
        int items = 0;
        ListRequest next = request;
        while (true) {
            ListPage<V1ConfigMap> page = api.list(resource, next);
            items += page.items().size();
            if (page.isLast()) {
                return items;
            }
            next = next.next(page.continueToken());
        }
    }

    private void print(Map<String, Totals> totals) {
        Table table = new Table("Scenario 6 — list semantics on the real control plane (" + objects
                + " ConfigMaps of ~1 KB, kube-apiserver " + "from controlplane/, one namespace)",
                "list", "LIST requests/list", "server time/list (sum)", "response bytes/list", "from watch cache",
                "from etcd", "client time/list (median)", "spread");
        totals.forEach((name, t) -> table.row(name, fmt(t.requests / rounds), ms(t.serverSeconds * 1000 / rounds),
                String.format("%,.0f", t.bytes / rounds), fmt(t.fromCache / rounds), fmt(t.fromEtcd / rounds),
                ms(t.client.median()), t.client.spread()));
        table.note(rounds + " measured rounds after " + warmUps + " warm-up, the three lists alternate (order rotates"
                + " each round); server figures are deltas of kube-apiserver's /metrics around each list, per list:"
                + " apiserver_request_duration_seconds and apiserver_response_sizes (verb LIST, resource configmaps),"
                + " and apiserver_storage_list_total by storage (watchcache, etcd)");
        table.note("response bytes as the server wrote them: gzip, which the client asks for; each ConfigMap holds"
                + " 600 random bytes in base64 (800 characters)");
        table.note("client time = the whole list as HttpWatchApi reads and decodes it, all pages");
        table.print();
    }

    private static String fmt(double value) {
        return value == Math.rint(value) ? String.format("%.0f", value) : String.format("%.1f", value);
    }

    private static String ms(double millis) {
        return String.format("%.1f ms", millis);
    }

    /** Per-shape sums over the measured rounds. */
    private static final class Totals {
        double requests;
        double serverSeconds;
        double bytes;
        double fromCache;
        double fromEtcd;
        final Stats client = new Stats();

        void add(Metrics delta, double clientMillis) {
            requests += delta.get("apiserver_request_duration_seconds_count", "verb=\"LIST\"");
            serverSeconds += delta.get("apiserver_request_duration_seconds_sum", "verb=\"LIST\"");
            bytes += delta.get("apiserver_response_sizes_sum", "verb=\"LIST\"");
            fromCache += delta.get("apiserver_storage_list_total", "storage=\"watchcache\"");
            fromEtcd += delta.get("apiserver_storage_list_total", "storage=\"etcd\"");
            client.add(clientMillis);
        }
    }

    /** The configmaps series of kube-apiserver's {@code /metrics}: series name with labels → value. */
    private record Metrics(Map<String, Double> series) {

        static Metrics scrape(ApiClient client) throws Exception {
            Map<String, Double> series = new LinkedHashMap<>();
            for (String line : RequestCounts.metricsLines(client)) {
                if (!line.startsWith("#") && line.contains(RESOURCE)) {
                    int space = line.lastIndexOf(' ');
                    series.put(line.substring(0, space), Double.parseDouble(line.substring(space + 1)));
                }
            }
            return new Metrics(series);
        }

        Metrics minus(Metrics earlier) {
            Map<String, Double> delta = new LinkedHashMap<>();
            series.forEach((name, value) -> delta.put(name, value - earlier.series.getOrDefault(name, 0.0)));
            return new Metrics(delta);
        }

        /** The sum of the series named {@code metric} whose labels contain {@code label} (any when null). */
        double get(String metric, String label) {
            return series.entrySet().stream()
                    .filter(e -> e.getKey().startsWith(metric + "{"))
                    .filter(e -> label == null || e.getKey().contains(label))
                    .mapToDouble(Map.Entry::getValue).sum();
        }
    }
}
