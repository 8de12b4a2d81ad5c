package dev.watchkeeper.test.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.watchkeeper.internal.reconcile.Reconciler;
import dev.watchkeeper.internal.backoff.BackOffSettings;
import dev.watchkeeper.internal.watch.Watcher;
import dev.watchkeeper.internal.watch.WatcherGroup;
import dev.watchkeeper.internal.watch.http.HttpWatchApi;
import dev.watchkeeper.reconcile.Dependent;
import dev.watchkeeper.reconcile.Dependents;
import dev.watchkeeper.reconcile.DependentsResult;
import dev.watchkeeper.reconcile.DependentsResult.Phase;
import dev.watchkeeper.internal.reconcile.Finalizer;
import dev.watchkeeper.reconcile.ReconcileContext;
import dev.watchkeeper.reconcile.ReconcileResult;
import dev.watchkeeper.internal.resource.ResourceType;
import dev.watchkeeper.test.conformance.CustomResources;
import dev.watchkeeper.internal.watch.WatchScope;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.AppsV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.RbacAuthorizationV1Api;
import io.kubernetes.client.openapi.models.V1ClusterRole;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1DeploymentSpec;
import io.kubernetes.client.openapi.models.V1DeploymentStatus;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import io.kubernetes.client.openapi.models.V1PolicyRule;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.openapi.models.V1Service;
import io.kubernetes.client.openapi.models.V1ServicePort;
import io.kubernetes.client.openapi.models.V1ServiceSpec;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Dependents end to end: a {@code Site} custom resource owns a page ConfigMap, a Deployment that waits for it and is
 * ready once rolled out, a Service that waits for the Deployment, one Secret per key in its spec (bulk) and a ConfigMap
 * that exists only while the site is exposed. There is no kubelet or Deployment controller on either server: the test
 * writes the Deployment's status as the Deployment controller would once its pods are available. Written once, run
 * on the in-memory server and on the real control plane.
 */
@Timeout(240)
abstract class DependentsScenarios {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final Duration GARBAGE_COLLECTED = Duration.ofSeconds(100);

    // tag::dependents[]
    static final Dependents<DynamicKubernetesObject> SITE = Dependents.of(DynamicKubernetesObject.class,
            Dependent.of("page", V1ConfigMap.class, (DynamicKubernetesObject site, ReconcileContext context) ->
                    new V1ConfigMap().metadata(child(site, "-page")).data(Map.of("index.html", spec(site, "html")))),
            Dependent.of("web", V1Deployment.class, (DynamicKubernetesObject site, ReconcileContext context) ->
                    deployment(site)).dependsOn("page").readyWhen(Dependent.deploymentAvailable()),
            Dependent.of("front", V1Service.class, (DynamicKubernetesObject site, ReconcileContext context) ->
                    new V1Service().metadata(child(site, "")).spec(new V1ServiceSpec()
                            .selector(Map.of("site", site.getMetadata().getName()))
                            .ports(List.of(new V1ServicePort().port(80))))).dependsOn("web"),
            Dependent.bulk("keys", V1Secret.class, (DynamicKubernetesObject site, ReconcileContext context) -> {
                List<V1Secret> secrets = new ArrayList<>();
                for (JsonElement key : site.getRaw().getAsJsonObject("spec").getAsJsonArray("keys")) {
                    secrets.add(new V1Secret().metadata(child(site, "-" + key.getAsString()))
                            .stringData(Map.of("key", key.getAsString())));
                }
                return secrets;
            }),
            Dependent.of("exposed", V1ConfigMap.class, (DynamicKubernetesObject site, ReconcileContext context) ->
                    new V1ConfigMap().metadata(child(site, "-exposed")).data(Map.of("exposed", "yes")))
                    .activeWhen(site -> site.getRaw().getAsJsonObject("spec").get("exposed").getAsBoolean()));
    // end::dependents[]

    private final List<DependentsResult> results = new CopyOnWriteArrayList<>();
    private final List<AutoCloseable> closing = new ArrayList<>();

    /** The client of the server under test. */
    abstract ApiClient client();

    abstract String namespace();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable closeable : reversed(closing)) {
            closeable.close();
        }
    }

    private static <E> List<E> reversed(List<E> list) {
        List<E> copy = new ArrayList<>(list);
        java.util.Collections.reverse(copy);
        return copy;
    }

    @Test
    void dependentsAreAppliedInOrderOnceReadyKeptAsDesiredAndDeletedWhenNoLongerWanted() throws Exception {
        CustomResources sites = new CustomResources(client(), "sites", "Site");
        sites.defineUnlessDefined();
        start(sites.type());
        String ns = namespace();
        CoreV1Api core = new CoreV1Api(client());
        AppsV1Api apps = new AppsV1Api(client());
        sites.api().create(sites.object(ns, "s1", Map.of("html", "<p>one</p>", "keys", List.of("a", "b"),
                "exposed", false))).throwsApiException();

        // 1. The page and keys are made; the Deployment is made but not ready, so the Service waits for it.
        DependentsResult first = awaitResult(result -> result.state("web").orElseThrow().phase() == Phase.NOT_READY);
        assertThat(first.state("page").orElseThrow().phase()).isEqualTo(Phase.READY);
        assertThat(first.state("front").orElseThrow().phase()).isEqualTo(Phase.BLOCKED);
        assertThat(first.state("front").orElseThrow().reason()).isEqualTo("waits for web (not ready)");
        assertThat(first.state("keys").orElseThrow().phase()).isEqualTo(Phase.READY);
        assertThat(first.state("exposed").orElseThrow().phase()).isEqualTo(Phase.INACTIVE);
        V1ConfigMap page = core.readNamespacedConfigMap("s1-page", ns).execute();
        assertThat(page.getData()).containsEntry("index.html", "<p>one</p>");
        assertThat(page.getMetadata().getOwnerReferences()).singleElement().satisfies(owner -> {
            assertThat(owner.getController()).isTrue();
            assertThat(owner.getName()).isEqualTo("s1");
        });
        assertThat(core.readNamespacedSecret("s1-a", ns).execute().getMetadata().getLabels())
                .containsEntry("watchkeeper.dev/dependent", "keys");
        core.readNamespacedSecret("s1-b", ns).execute();
        assertThat(exists(() -> core.readNamespacedService("s1", ns).execute())).isFalse();
        await().atMost(WAIT).untilAsserted(() -> assertThat(condition(sites, "Ready"))
                .containsEntry("status", "False").containsEntry("reason", "DependentNotReady")
                .containsEntry("message", "dependent web is not ready: V1Deployment s1 is not ready"));

        // 2. Rolled out (the status the Deployment controller would write): the Service follows, and the site is Ready.
        V1Deployment deployment = apps.readNamespacedDeployment("s1", ns).execute();
        deployment.status(new V1DeploymentStatus().observedGeneration(deployment.getMetadata().getGeneration())
                .replicas(1).updatedReplicas(1).readyReplicas(1).availableReplicas(1));
        apps.replaceNamespacedDeploymentStatus("s1", ns, deployment).execute();
        awaitResult(DependentsResult::allReady);
        assertThat(core.readNamespacedService("s1", ns).execute().getSpec().getSelector()).containsEntry("site", "s1");
        await().atMost(WAIT).untilAsserted(() -> assertThat(condition(sites, "Ready"))
                .containsEntry("status", "True"));

        // 3. Nothing a dependent reads changed: the reconcile that a new field of the spec starts applies nothing.
        results.clear();
        updateSite(sites, site -> site.getRaw().getAsJsonObject("spec").addProperty("note", "unrelated"));
        DependentsResult quiet = awaitResult(DependentsResult::allReady);
        assertThat(quiet.dependents()).allSatisfy(state -> assertThat(state.applied()).as(state.name()).isZero());
        assertThat(quiet.state("keys").orElseThrow().unchanged()).isEqualTo(2);

        // 4. Someone else changes the page: it is put back.
        page = core.readNamespacedConfigMap("s1-page", ns).execute();
        core.replaceNamespacedConfigMap("s1-page", ns, page.data(Map.of("index.html", "defaced"))).execute();
        await().atMost(WAIT).until(() -> "<p>one</p>".equals(core.readNamespacedConfigMap("s1-page", ns).execute()
                .getData().get("index.html")));

        // 5. One key fewer: its Secret is deleted. Exposed: its ConfigMap appears; no longer: it goes.
        updateSite(sites, site -> {
            JsonObject spec = site.getRaw().getAsJsonObject("spec");
            spec.add("keys", sites.json(Map.of("k", List.of("a"))).get("k"));
            spec.addProperty("exposed", true);
        });
        await().atMost(WAIT).until(() -> !exists(() -> core.readNamespacedSecret("s1-b", ns).execute())
                && exists(() -> core.readNamespacedConfigMap("s1-exposed", ns).execute()));
        core.readNamespacedSecret("s1-a", ns).execute();
        updateSite(sites, site -> site.getRaw().getAsJsonObject("spec").addProperty("exposed", false));
        await().atMost(WAIT).until(() -> !exists(() -> core.readNamespacedConfigMap("s1-exposed", ns).execute()));

        // 6. The site goes: the garbage collector takes its dependents, by their owner references. The real one starts
        // watching a new custom resource at its next discovery resync (every 30 s), so this may take that long.
        sites.api().delete(ns, "s1").throwsApiException();
        await().atMost(GARBAGE_COLLECTED).until(() -> !exists(() -> core.readNamespacedConfigMap("s1-page", ns).execute())
                && !exists(() -> apps.readNamespacedDeployment("s1", ns).execute())
                && !exists(() -> core.readNamespacedService("s1", ns).execute())
                && !exists(() -> core.readNamespacedSecret("s1-a", ns).execute()));
    }

    @Test
    void aDependentOfThePrimarysOwnTypeIsFoundInTheOwnedWatchersCacheSoAnUnchangedOneSendsNothing() throws Exception {
        String ns = namespace();
        CoreV1Api core = new CoreV1Api(client());
        WatchScope requests = WatchScope.namespace(namespace()).withLabelSelector("greeter=true");
        Dependents<V1ConfigMap> reply = Dependents.of(V1ConfigMap.class, Dependent.of("reply", V1ConfigMap.class,
                (V1ConfigMap request, ReconcileContext context) -> new V1ConfigMap().metadata(new V1ObjectMeta()
                        .namespace(ns).name(request.getMetadata().getName() + "-reply"))
                        .data(Map.of("greeting", "Hello, " + request.getData().get("name") + "!"))));
        var reconciler = Reconciler.builder("greeter", watcher(ResourceType.of(V1ConfigMap.class), requests),
                (V1ConfigMap request, ReconcileContext context) -> {
                    results.add(context.reconcileDependents(reply));
                    return ReconcileResult.done();
                }).owns(watcher(ResourceType.of(V1ConfigMap.class), WatchScope.namespace(ns)))
                .apiClient(client()).build();
        closing.add(() -> reconciler.close(Duration.ofSeconds(2)));
        reconciler.start();

        core.createNamespacedConfigMap(ns, new V1ConfigMap().metadata(new V1ObjectMeta().name("ada")
                .putLabelsItem("greeter", "true")).data(Map.of("name", "Ada"))).execute();
        awaitResult(result -> result.state("reply").orElseThrow().applied() == 1);
        assertThat(core.readNamespacedConfigMap("ada-reply", ns).execute().getData())
                .containsEntry("greeting", "Hello, Ada!");

        // A change the reply does not depend on: the reconcile it starts finds the reply cached and sends nothing.
        results.clear();
        V1ConfigMap request = core.readNamespacedConfigMap("ada", ns).execute();
        core.replaceNamespacedConfigMap("ada", ns, request.putDataItem("unrelated", "x")).execute();
        DependentsResult quiet = awaitResult(result -> true);
        assertThat(quiet.state("reply").orElseThrow().unchanged()).isEqualTo(1);
        assertThat(quiet.state("reply").orElseThrow().applied()).isZero();
    }

    @Test
    void aClusterScopedChildOfANamespacedPrimaryIsDeletedByTheCleanupWhichTheGarbageCollectorCannotDo()
            throws Exception {
        String ns = namespace();
        CoreV1Api core = new CoreV1Api(client());
        RbacAuthorizationV1Api rbac = new RbacAuthorizationV1Api(client());
        String roleName = "watchkeeper-test-" + ns + "-reader";
        Dependents<V1ConfigMap> role = Dependents.of(V1ConfigMap.class, Dependent.of("role", V1ClusterRole.class,
                (V1ConfigMap request, ReconcileContext context) -> new V1ClusterRole()
                        .metadata(new V1ObjectMeta().name(roleName))
                        .rules(List.of(new V1PolicyRule().apiGroups(List.of("")).resources(List.of("configmaps"))
                                .verbs(List.of("get"))))));
        var reconciler = Reconciler.builder("readers", watcher(ResourceType.of(V1ConfigMap.class),
                WatchScope.namespace(ns).withLabelSelector("reader=true")),
                (V1ConfigMap request, ReconcileContext context) -> {
                    results.add(context.reconcileDependents(role));
                    return ReconcileResult.done();
                }).owns(watcher(ResourceType.of(V1ClusterRole.class), WatchScope.allNamespaces()))
                .finalizer(new Finalizer<>("example.com/readers", (request, context) -> context.deleteDependents(role)))
                .apiClient(client()).build();
        closing.add(() -> reconciler.close(Duration.ofSeconds(2)));
        reconciler.start();

        core.createNamespacedConfigMap(ns, new V1ConfigMap().metadata(new V1ObjectMeta().name("reader")
                .putLabelsItem("reader", "true"))).execute();
        await().atMost(WAIT).until(() -> exists(() -> rbac.readClusterRole(roleName).execute()));
        assertThat(rbac.readClusterRole(roleName).execute().getMetadata().getOwnerReferences()).singleElement()
                .satisfies(owner -> assertThat(owner.getName()).isEqualTo("reader"));

        // Found again through the owner index across scopes: the next reconcile sends nothing for it.
        results.clear();
        V1ConfigMap request = core.readNamespacedConfigMap("reader", ns).execute();
        core.replaceNamespacedConfigMap("reader", ns, request.putDataItem("unrelated", "x")).execute();
        assertThat(awaitResult(result -> true).state("role").orElseThrow().unchanged()).isEqualTo(1);

        // An owner reference from a cluster-scoped object to a namespaced one does not count for the garbage
        // collector: the cleanup under the finalizer deletes the ClusterRole, then the request goes.
        core.deleteNamespacedConfigMap("reader", ns).execute();
        await().atMost(WAIT).until(() -> !exists(() -> rbac.readClusterRole(roleName).execute())
                && !exists(() -> core.readNamespacedConfigMap("reader", ns).execute()));
    }

    @Test
    void aDependentOfATypeOwnedWhenServedWaitsForItsCrdWithoutHoldingUpTheReconcilerAndIsMadeOnceItIsServed()
            throws Exception {
        String ns = namespace();
        CoreV1Api core = new CoreV1Api(client());
        // Another operator's CRD, not installed yet: a kind and plural of this run's own, as the control plane lives on.
        String kind = "Gadget" + Long.toString(System.nanoTime() % 1_000_000_000L, 26).replaceAll("[0-9]", "x");
        String plural = kind.toLowerCase(java.util.Locale.ROOT) + "s";
        CustomResources gadgets = new CustomResources(client(), plural, kind);
        ResourceType<Gadget> gadgetType = ResourceType.custom(Gadget.class, "conformance.watchkeeper.dev", "v1", plural, true);
        Dependents<V1ConfigMap> parts = Dependents.of(V1ConfigMap.class,
                Dependent.of("settings", V1Secret.class, (V1ConfigMap request, ReconcileContext context) ->
                        new V1Secret().metadata(new V1ObjectMeta().namespace(ns)
                                .name(request.getMetadata().getName() + "-settings"))
                                .stringData(Map.of("mode", "on"))),
                Dependent.of("gadget", Gadget.class, (V1ConfigMap request, ReconcileContext context) ->
                        new Gadget(gadgetType.apiVersion(), kind, new V1ObjectMeta().namespace(ns)
                                .name(request.getMetadata().getName()), Map.of("size", "small"))));
        Watcher<Gadget> gadgetWatcher = HttpWatchApi.watcher(client(), gadgetType).scope(WatchScope.namespace(ns))
                .backOff(new BackOffSettings(Duration.ofMillis(100), 2, Duration.ofSeconds(1), 0.1,
                        Duration.ofMinutes(2), null))
                .build();
        closing.add(gadgetWatcher::close);
        gadgetWatcher.start();
        var reconciler = Reconciler.builder("gadgets", watcher(ResourceType.of(V1ConfigMap.class),
                WatchScope.namespace(ns).withLabelSelector("gadgets=true")),
                (V1ConfigMap request, ReconcileContext context) -> {
                    results.add(context.reconcileDependents(parts));
                    return ReconcileResult.done();
                }).owns(watcher(ResourceType.of(V1Secret.class), WatchScope.namespace(ns)))
                .ownsWhenServed(WatcherGroup.of(gadgetWatcher))
                .apiClient(client()).build();
        closing.add(() -> reconciler.close(Duration.ofSeconds(2)));
        reconciler.start();

        // 1. Not served: the reconciler works anyway; the gadget is inactive and holds nothing up.
        core.createNamespacedConfigMap(ns, new V1ConfigMap().metadata(new V1ObjectMeta().name("g1")
                .putLabelsItem("gadgets", "true"))).execute();
        DependentsResult waiting = awaitResult(result -> result.state("settings").orElseThrow().phase() == Phase.READY);
        assertThat(waiting.state("gadget").orElseThrow().phase()).isEqualTo(Phase.INACTIVE);
        assertThat(waiting.state("gadget").orElseThrow().reason())
                .isEqualTo("the server does not serve Gadget yet");
        assertThat(waiting.allReady()).isTrue();
        assertThat(reconciler.snapshot().ready()).isTrue();
        assertThat(gadgetWatcher.store().ready()).isNotDone();
        core.readNamespacedSecret("g1-settings", ns).execute();

        // 2. The CRD is installed: once its watcher lists, every primary is reconciled again and gets its gadget.
        gadgets.define();
        DependentsResult served = awaitResult(result -> result.state("gadget").orElseThrow().phase() == Phase.READY);
        assertThat(served.state("gadget").orElseThrow().applied()).isEqualTo(1);
        DynamicKubernetesObject gadget = gadgets.api().get(ns, "g1").throwsApiException().getObject();
        assertThat(gadget.getRaw().getAsJsonObject("spec").get("size").getAsString()).isEqualTo("small");
        assertThat(gadget.getMetadata().getOwnerReferences()).singleElement()
                .satisfies(owner -> assertThat(owner.getName()).isEqualTo("g1"));
        core.deleteNamespacedConfigMap("g1", ns).execute();
        gadgets.undefine(); // this run's own kind: a later run on the same control plane starts without it
    }

    private void start(ResourceType<DynamicKubernetesObject> type) {
        WatchScope scope = WatchScope.namespace(namespace());
        Watcher<DynamicKubernetesObject> primary = watcher(type, scope);
        var reconciler = Reconciler.builder("sites", primary, (DynamicKubernetesObject site, ReconcileContext context) -> {
            results.add(context.reconcileDependents(SITE));
            return ReconcileResult.done();
        }).owns(watcher(ResourceType.of(V1ConfigMap.class), scope))
                .owns(watcher(ResourceType.of(V1Deployment.class), scope))
                .owns(watcher(ResourceType.of(V1Service.class), scope))
                .owns(watcher(ResourceType.of(V1Secret.class), scope))
                .apiClient(client()).build();
        closing.add(() -> reconciler.close(Duration.ofSeconds(2)));
        reconciler.start();
    }

    private <T extends io.kubernetes.client.common.KubernetesObject> Watcher<T> watcher(ResourceType<T> type,
            WatchScope scope) {
        Watcher<T> watcher = HttpWatchApi.watcher(client(), type).scope(scope).build();
        closing.add(watcher::close);
        watcher.start();
        return watcher;
    }

    private DependentsResult awaitResult(java.util.function.Predicate<DependentsResult> wanted) {
        return await().atMost(WAIT).until(() -> results.isEmpty() ? null : results.get(results.size() - 1),
                result -> result != null && wanted.test(result));
    }

    private void updateSite(CustomResources sites, Consumer<DynamicKubernetesObject> change) throws Exception {
        await().atMost(WAIT).ignoreExceptions().untilAsserted(() -> {
            DynamicKubernetesObject site = sites.api().get(namespace(), "s1").throwsApiException().getObject();
            change.accept(site);
            sites.api().update(site).throwsApiException();
        });
    }

    private Map<String, String> condition(CustomResources sites, String type) throws ApiException {
        JsonObject status = sites.api().get(namespace(), "s1").throwsApiException().getObject().getRaw()
                .getAsJsonObject("status");
        if (status == null || status.getAsJsonArray("conditions") == null) {
            return Map.of();
        }
        for (JsonElement condition : status.getAsJsonArray("conditions")) {
            JsonObject fields = condition.getAsJsonObject();
            if (type.equals(fields.get("type").getAsString())) {
                return Map.of("status", fields.get("status").getAsString(), "reason",
                        fields.get("reason").getAsString(), "message", fields.get("message").getAsString());
            }
        }
        return Map.of();
    }

    private static V1ObjectMeta child(DynamicKubernetesObject site, String suffix) {
        return new V1ObjectMeta().namespace(site.getMetadata().getNamespace())
                .name(site.getMetadata().getName() + suffix);
    }

    private static String spec(DynamicKubernetesObject site, String field) {
        return site.getRaw().getAsJsonObject("spec").get(field).getAsString();
    }

    private static V1Deployment deployment(DynamicKubernetesObject site) {
        Map<String, String> labels = Map.of("site", site.getMetadata().getName());
        return new V1Deployment().metadata(child(site, "")).spec(new V1DeploymentSpec().replicas(1)
                .selector(new V1LabelSelector().matchLabels(labels))
                .template(new V1PodTemplateSpec().metadata(new V1ObjectMeta().labels(labels))
                        .spec(new V1PodSpec().containers(List.of(new V1Container().name("web").image("nginx:1.27"))))));
    }

    /** Whether {@code read} finds the object (false on 404). */
    private static boolean exists(Read read) {
        try {
            read.run();
            return true;
        } catch (ApiException e) {
            if (e.getCode() == 404) {
                return false;
            }
            throw new IllegalStateException(e);
        }
    }

    @FunctionalInterface
    private interface Read {
        void run() throws ApiException;
    }
}
