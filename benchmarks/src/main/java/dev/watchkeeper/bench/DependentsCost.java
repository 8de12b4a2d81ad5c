package dev.watchkeeper.bench;

import com.google.gson.JsonObject;
import dev.watchkeeper.examples.webpage.WebPage;
import dev.watchkeeper.examples.webpage.WebPageOperator;
import dev.watchkeeper.internal.registry.WatchkeeperRegistry;
import dev.watchkeeper.test.controlplane.KubeControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import org.opentest4j.TestAbortedException;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The dependents benchmark: the WebPage port on the real control plane, N exposed pages (4 children each: ConfigMap,
 * Deployment, Service, Ingress), with its dependents ({@code standalone}) and with the same reconciler written by
 * hand in the sample's style ({@link dev.watchkeeper.examples.webpage.FloorWebPageReconciler}, the floor). Each
 * variant runs in a fresh Spring context in this JVM, in its own namespace, in turn (which goes first alternates; a
 * warm-up pair before is not reported), {@code rounds} times: create all
 * N and wait until each page's status is good; change every page's HTML and wait until every ConfigMap holds it. The
 * operator's writes are counted by kube-apiserver ({@link RequestCounts}); heap after a full GC with the context up,
 * less before it started.
 */
final class DependentsCost {

    private static final int USER_THREADS = 4;
    private static final Duration TIMEOUT = Duration.ofMinutes(3);
    /** After convergence, for the operator's last writes (a status after the last apply) to be counted. */
    private static final Duration SETTLE = Duration.ofSeconds(2);
    private static final List<String> CHILDREN = List.of("configmaps", "deployments", "services", "ingresses");

    private final int pages;
    private final int rounds;

    DependentsCost(int pages, int rounds) {
        this.pages = pages;
        this.rounds = rounds;
    }

    record Result(String variant, int round, double createSeconds, double changeSeconds, Map<String, Double> create,
            Map<String, Double> change, double heapKbPerPage) {
    }

    void run() throws Exception {
        KubeControlPlane plane;
        try {
            plane = KubeControlPlane.shared();
        } catch (TestAbortedException e) {
            System.out.printf("%nDependents benchmark skipped: %s%n", e.getMessage());
            return;
        }
        // A warm-up pair, not reported: otherwise whichever runs first pays for the JIT.
        run(plane, "floor", 0);
        run(plane, "standalone", 0);
        List<Result> results = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
            for (String variant : round % 2 == 1 ? List.of("floor", "standalone") : List.of("standalone", "floor")) {
                results.add(run(plane, variant, round));
            }
        }
        print(results);
    }

    private Result run(KubeControlPlane plane, String variant, int round) throws Exception {
        String ns = "deps-" + variant + "-" + round + "-" + Long.toString(System.currentTimeMillis() % 1_000_000, 36);
        plane.kubectl("create", "namespace", ns);
        ApiClient client = plane.apiClient();
        long heapBefore = heapAfterGc();
        ApiClient operatorClient = plane.apiClient();
        ConfigurableApplicationContext operator = new SpringApplicationBuilder(WebPageOperator.class)
                .web(WebApplicationType.NONE)
                .initializers(context -> context.getBeanFactory().registerSingleton("apiClient", operatorClient))
                .properties("webpage.reconciler=" + variant, "webpage.namespace=" + ns, "watchkeeper.crds.apply=true",
                        "spring.main.banner-mode=off", "logging.level.root=warn")
                .run();
        try {
            DynamicKubernetesApi api = new DynamicKubernetesApi(WebPage.GROUP, "v1", "webpages", client);
            RequestCounts before = RequestCounts.scrape(client);
            long start = System.nanoTime();
            inParallel(i -> create(api, ns, "page-" + i));
            awaitAll(() -> goodPages(api, ns), operator);
            double createSeconds = (System.nanoTime() - start) / 1e9;
            Thread.sleep(SETTLE.toMillis());
            RequestCounts afterCreate = RequestCounts.scrape(client);
            double heap = (heapAfterGc() - heapBefore) / 1024.0 / pages;

            start = System.nanoTime();
            inParallel(i -> changeHtml(api, ns, "page-" + i));
            awaitAll(() -> changedConfigMaps(client, ns), operator);
            double changeSeconds = (System.nanoTime() - start) / 1e9;
            Thread.sleep(SETTLE.toMillis());
            RequestCounts afterChange = RequestCounts.scrape(client);
            Result result = new Result(variant, round, createSeconds, changeSeconds, writes(afterCreate.minus(before)),
                    writes(afterChange.minus(afterCreate)), heap);
            Progress.say("dependents: %s round %d: created in %.2f s, changed in %.2f s, writes %s then %s, heap %.1f KB"
                    + " per page", variant, round, createSeconds, changeSeconds, result.create(), result.change(), heap);
            return result;
        } finally {
            operator.close();
            // The namespace controller deletes the 2,000 objects: waited for, so it does not load the next run.
            plane.kubectl("delete", "namespace", ns, "--timeout=5m");
        }
    }

    /** The operator's writes per page by resource: applies and deletes of children, status writes of pages. */
    private Map<String, Double> writes(RequestCounts counts) {
        Map<String, Double> writes = new java.util.LinkedHashMap<>();
        for (String child : CHILDREN) {
            writes.put(child, (counts.of("APPLY", child) + counts.of("PATCH", child) + counts.of("DELETE", child))
                    / pages);
        }
        writes.put("webpages/status", (counts.of("PUT", "webpages/status") + counts.of("PATCH", "webpages/status"))
                / pages);
        return writes;
    }

    private static void create(DynamicKubernetesApi api, String ns, String name) throws Exception {
        JsonObject raw = new JsonObject();
        raw.addProperty("apiVersion", WebPage.GROUP + "/v1");
        raw.addProperty("kind", "WebPage");
        JsonObject metadata = new JsonObject();
        metadata.addProperty("namespace", ns);
        metadata.addProperty("name", name);
        raw.add("metadata", metadata);
        JsonObject spec = new JsonObject();
        spec.addProperty("html", html("Title 1"));
        spec.addProperty("exposed", true);
        raw.add("spec", spec);
        api.create(new DynamicKubernetesObject(raw)).throwsApiException();
    }

    private static void changeHtml(DynamicKubernetesApi api, String ns, String name) throws Exception {
        for (int attempt = 0; ; attempt++) {
            DynamicKubernetesObject page = api.get(ns, name).throwsApiException().getObject();
            page.getRaw().getAsJsonObject("spec").addProperty("html", html("Title 2"));
            var answer = api.update(page);
            if (answer.isSuccess() || answer.getHttpStatusCode() != 409 || attempt > 10) {
                answer.throwsApiException();
                return;
            }
        }
    }

    private static String html(String title) {
        return "<html><head><title>" + title + "</title></head><body>Hello World!</body></html>";
    }

    private int goodPages(DynamicKubernetesApi api, String ns) throws Exception {
        int good = 0;
        for (DynamicKubernetesObject page : api.list(ns).throwsApiException().getObject().getItems()) {
            JsonObject status = page.getRaw().getAsJsonObject("status");
            if (status != null && status.has("areWeGood") && status.get("areWeGood").getAsBoolean()) {
                good++;
            }
        }
        return good;
    }

    private int changedConfigMaps(ApiClient client, String ns) throws Exception {
        int changed = 0;
        for (V1ConfigMap configMap : new CoreV1Api(client).listNamespacedConfigMap(ns).execute().getItems()) {
            if (configMap.getData() != null && configMap.getData().getOrDefault("index.html", "").contains("Title 2")) {
                changed++;
            }
        }
        return changed;
    }

    @FunctionalInterface
    private interface Count {
        int get() throws Exception;
    }

    /** Waits until {@code count} reaches N; else fails with the operator's reconciler state, to say why. */
    private void awaitAll(Count count, ConfigurableApplicationContext operator) throws Exception {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (count.get() < pages) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("not converged within " + TIMEOUT + ": " + count.get() + " of " + pages
                        + "; the reconciler: " + operator.getBean(WatchkeeperRegistry.class).reconcilers().stream()
                                .map(reconciler -> reconciler.snapshot().toString()).toList());
            }
            Thread.sleep(100);
        }
    }

    @FunctionalInterface
    private interface PageAction {
        void run(int index) throws Exception;
    }

    private void inParallel(PageAction action) throws Exception {
        ExecutorService users = Executors.newFixedThreadPool(USER_THREADS);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int i = 0; i < pages; i++) {
                int index = i;
                done.add(users.submit(() -> {
                    action.run(index);
                    return null;
                }));
            }
            for (Future<?> future : done) {
                future.get();
            }
        } finally {
            users.shutdown();
        }
    }

    private static long heapAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private void print(List<Result> results) {
        System.out.printf("%n#### Dependents — the WebPage port on the real control plane, %,d exposed pages (4 children"
                + " each), dependents vs the same reconciler by hand (a fresh Spring context per run, %d rounds)%n%n",
                pages, rounds);
        System.out.println("| variant | round | create → all good | HTML change of all → converged | writes per page"
                + " at create (cm, deploy, svc, ing, status) | writes per page at change | heap per page |");
        System.out.println("|---|---|---|---|---|---|---|");
        for (Result r : results) {
            System.out.printf("| %s | %d | %.2f s | %.2f s | %s | %s | %.1f KB |%n", label(r.variant()), r.round(),
                    r.createSeconds(), r.changeSeconds(), cells(r.create()), cells(r.change()), r.heapKbPerPage());
        }
        double createRatio = medianRatio(results, Result::createSeconds);
        double changeRatio = medianRatio(results, Result::changeSeconds);
        double writesRatio = median(results, "standalone", r -> total(r.create()) + total(r.change()))
                / median(results, "floor", r -> total(r.create()) + total(r.change()));
        System.out.printf("%nDependents ÷ floor: time to create, median of the rounds' ratios %.2f×; to change %.2f×;"
                + " writes (medians) %.2f× (goal ≤ 1.1×)%n",
                createRatio, changeRatio, writesRatio);
    }

    private static String label(String variant) {
        return variant.equals("floor") ? "by hand (floor)" : "dependents";
    }

    private static String cells(Map<String, Double> writes) {
        return String.join(" + ", writes.values().stream().map(v -> String.format("%.2f", v)).toList())
                + String.format(" = %.2f", total(writes));
    }

    private static double total(Map<String, Double> writes) {
        return writes.values().stream().mapToDouble(Double::doubleValue).sum();
    }

    /** The median over rounds of each round's dependents ÷ floor. */
    private double medianRatio(List<Result> results, java.util.function.ToDoubleFunction<Result> value) {
        List<Double> ratios = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
            int r = round;
            double dependents = results.stream().filter(x -> x.round() == r && x.variant().equals("standalone"))
                    .mapToDouble(value).sum();
            double floor = results.stream().filter(x -> x.round() == r && x.variant().equals("floor"))
                    .mapToDouble(value).sum();
            ratios.add(dependents / floor);
        }
        double[] sorted = ratios.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return sorted.length % 2 == 1 ? sorted[sorted.length / 2]
                : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
    }

    private static double median(List<Result> results, String variant,
            java.util.function.ToDoubleFunction<Result> value) {
        double[] values = results.stream().filter(r -> r.variant().equals(variant)).mapToDouble(value).sorted()
                .toArray();
        return values.length % 2 == 1 ? values[values.length / 2]
                : (values[values.length / 2 - 1] + values[values.length / 2]) / 2;
    }
}
