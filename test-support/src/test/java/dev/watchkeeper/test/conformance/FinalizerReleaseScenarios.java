package dev.watchkeeper.test.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.watchkeeper.internal.reconcile.Reconciler;
import dev.watchkeeper.internal.reconcile.ReconcilerBuilder;
import dev.watchkeeper.internal.shard.ShardParticipant;
import dev.watchkeeper.internal.shard.Slots;
import dev.watchkeeper.internal.shard.UidHash;
import dev.watchkeeper.internal.watch.ShardFilter;
import dev.watchkeeper.internal.watch.Watcher;
import dev.watchkeeper.internal.watch.WatcherBuilder;
import dev.watchkeeper.internal.watch.http.HttpWatchApi;
import dev.watchkeeper.internal.reconcile.Finalizer;
import dev.watchkeeper.reconcile.ReconcileResult;
import dev.watchkeeper.reconcile.ReconcilerSnapshot;
import dev.watchkeeper.internal.resource.ResourceType;
import dev.watchkeeper.test.EventRecorder;
import dev.watchkeeper.internal.watch.WatchOptions;
import dev.watchkeeper.internal.watch.WatchScope;
import dev.watchkeeper.watch.WatcherPhase;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodStatus;
import io.kubernetes.client.openapi.models.V1PodTemplate;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Never a stranded finalizer (docs/semantics.md §10), on both servers (one subclass each): an object that leaves a
 * reconciler's watch while it carries the reconciler's finalizer — its fields stop matching the field selector, a
 * relist after the watch was down does not find it, or it leaves a sharded reconciler's watch by its labels — is
 * cleaned up and released, so its later deletion completes; and one that leaves a sharded reconciler's watch because
 * its slot was assigned to another replica is left to that replica, which cleans it up when it is deleted. (The label
 * selector case of an unsharded reconciler is {@code ConformanceScenarios}'.)
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class FinalizerReleaseScenarios {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String FINALIZER = "conformance.watchkeeper.dev/release";
    private static final WatchOptions LIST_WATCH = ConformanceScenarios.listWatch();

    private final List<Watcher<?>> watchers = new ArrayList<>();
    private final List<Reconciler<?>> reconcilers = new ArrayList<>();
    /** {@code reconciler:name} of each cleanup that ran, in order. */
    private final List<String> cleanups = new CopyOnWriteArrayList<>();

    /** The server of this run. */
    abstract ServerUnderTest server();

    @AfterEach
    void closeEverything() {
        reconcilers.forEach(reconciler -> reconciler.close(Duration.ofSeconds(5)));
        reconcilers.clear();
        watchers.forEach(Watcher::close);
        watchers.clear();
        cleanups.clear();
    }

    /**
     * Of the fields a field selector can name, ConfigMaps and PodTemplates offer only {@code metadata.name} and
     * {@code metadata.namespace}, which never change; a Pod's {@code status.phase} does, so a Pod leaves a watch of
     * Pods not yet running when it starts running.
     */
    @Test
    void anObjectWhoseFieldsStopMatchingTheFieldSelectorIsReleasedAndItsDeletionNotStuck() throws Exception {
        CoreV1Api core = core();
        core.createNamespacedPod(namespace(), new V1Pod().metadata(new V1ObjectMeta().name("starting"))
                // client-java sends an empty overhead map, which a real server's RuntimeClass admission refuses
                .spec(new V1PodSpec().overhead(null).containers(List.of(container())))).execute();
        Watcher<V1Pod> pods = watcher(ResourceType.of(V1Pod.class), server().apiClient(),
                WatchScope.namespace(namespace()).withFieldSelector("status.phase!=Running"), LIST_WATCH, null);
        start(reconciler("pods", pods, false));
        Callable<KubernetesObject> read = () -> core.readNamespacedPod("starting", namespace()).execute();
        awaitFinalizer(read, true);

        V1Pod pod = core.readNamespacedPod("starting", namespace()).execute();
        core.replaceNamespacedPodStatus("starting", namespace(), pod.status(new V1PodStatus().phase("Running")))
                .execute();

        awaitFinalizer(read, false);
        assertThat(cleanups).containsExactly("pods:starting");
        awaitDeleted(() -> core.deleteNamespacedPod("starting", namespace()).execute(), read);
    }

    /**
     * The watch (ended every 2 s, so the watcher soon calls again) is down while the object's labels change and the history is compacted, so the watcher relists and
     * does not find it: the relist's delete (final state unknown) carries the finalizer, which is released.
     */
    @Test
    void anObjectARelistDoesNotFindIsReleasedAndItsDeletionNotStuck() throws Exception {
        CoreV1Api core = core();
        core.createNamespacedPodTemplate(namespace(), podTemplate("relisted", "relist")).execute();
        RequestLog log = new RequestLog();
        Watcher<V1PodTemplate> templates = watcher(ResourceType.of(V1PodTemplate.class),
                log.attachTo(server().apiClient()), WatchScope.namespace(namespace())
                        .withLabelSelector("finalizers=relist"), LIST_WATCH.withTimeout(Duration.ofSeconds(2)), null);
        start(reconciler("templates", templates, false));
        EventRecorder<V1PodTemplate> recorder = new EventRecorder<>();
        templates.addListener(recorder);
        Callable<KubernetesObject> read = () -> core.readNamespacedPodTemplate("relisted", namespace()).execute();
        awaitFinalizer(read, true);

        log.refuse(true); // the watcher loses its connection; meanwhile the object leaves and history is compacted
        int watchesBefore = log.watches("podtemplates").size();
        await().atMost(WAIT).until(() -> log.watches("podtemplates").size() > watchesBefore
                && templates.snapshot().phase() == WatcherPhase.BACKING_OFF);
        V1PodTemplate template = core.readNamespacedPodTemplate("relisted", namespace()).execute();
        template.getMetadata().getLabels().remove("finalizers");
        core.replaceNamespacedPodTemplate("relisted", namespace(), template).execute();
        server().compact();
        log.refuse(false);

        awaitFinalizer(read, false);
        assertThat(cleanups).containsExactly("templates:relisted");
        assertThat(recorder.events()).as("the object left by the relist").contains(
                "Delete(relisted, final state unknown)");
        assertThat(templates.snapshot().counts().relists()).isEqualTo(1);
        awaitDeleted(() -> core.deleteNamespacedPodTemplate("relisted", namespace()).execute(), read);
    }

    /** A sharded reconciler that owns the object's slot releases it as an unsharded one does. */
    @Test
    void aShardedReconcilersObjectThatLeavesByItsLabelsIsReleasedAndItsDeletionNotStuck() throws Exception {
        CoreV1Api core = core();
        core.createNamespacedConfigMap(namespace(), configMap("sharded-leaver", "sharded-label")).execute();
        Watcher<V1ConfigMap> configMaps = shardedConfigMaps("sharded-label");
        Reconciler<V1ConfigMap> replica = start(reconciler("replica", configMaps, true));
        ShardParticipant participant = replica.participant(configMaps::reshard);
        participant.assign(Slots.all());
        participant.widen(Slots.all());
        Callable<KubernetesObject> read = () -> core.readNamespacedConfigMap("sharded-leaver", namespace()).execute();
        awaitFinalizer(read, true);

        V1ConfigMap unlabelled = core.readNamespacedConfigMap("sharded-leaver", namespace()).execute();
        unlabelled.getMetadata().getLabels().remove("finalizers");
        core.replaceNamespacedConfigMap("sharded-leaver", namespace(), unlabelled).execute();

        awaitFinalizer(read, false);
        assertThat(cleanups).containsExactly("replica:sharded-leaver");
        awaitDeleted(() -> core.deleteNamespacedConfigMap("sharded-leaver", namespace()).execute(), read);
    }

    /**
     * Its slot is assigned to another replica and this one's watcher relists without it, while the slot is still
     * active here (the coordinator narrows right after it assigns): this replica leaves the finalizer alone, and the
     * new owner cleans the object up when it is deleted.
     */
    @Test
    void aShardedReconcilerLeavesAnObjectWhoseSlotIsAssignedAwayToItsNewOwner() throws Exception {
        CoreV1Api core = core();
        V1ConfigMap created = core.createNamespacedConfigMap(namespace(), configMap("moving", "sharded-move"))
                .execute();
        Slots itsSlot = Slots.of(Slots.slotOf(UidHash.of(created.getMetadata().getUid())));
        Watcher<V1ConfigMap> before = shardedConfigMaps("sharded-move");
        Reconciler<V1ConfigMap> old = start(reconciler("old", before, true));
        ShardParticipant oldSide = old.participant(before::reshard);
        oldSide.assign(Slots.all());
        oldSide.widen(Slots.all());
        Callable<KubernetesObject> read = () -> core.readNamespacedConfigMap("moving", namespace()).execute();
        awaitFinalizer(read, true);
        EventRecorder<V1ConfigMap> recorder = new EventRecorder<>();
        before.addListener(recorder);

        Slots kept = Slots.all().minus(itsSlot);
        oldSide.assign(kept); // not yet narrowed: the slot is still active here
        await().atMost(WAIT).until(() -> recorder.events().contains("Delete(moving, final state unknown)"));
        awaitIdle(old);
        assertThat(old.snapshot().shard().activeSlots()).isEqualTo(Slots.all().toString());
        assertThat(core.readNamespacedConfigMap("moving", namespace()).execute().getMetadata().getFinalizers())
                .as("left to its new owner").containsExactly(FINALIZER);
        oldSide.narrow(kept).get(WAIT.toSeconds(), TimeUnit.SECONDS);

        Watcher<V1ConfigMap> after = shardedConfigMaps("sharded-move");
        Reconciler<V1ConfigMap> owner = start(reconciler("new", after, true));
        ShardParticipant newSide = owner.participant(after::reshard);
        newSide.assign(itsSlot);
        newSide.widen(itsSlot);
        await().atMost(WAIT).until(() -> owner.counts().reconciles() >= 1);
        awaitDeleted(() -> core.deleteNamespacedConfigMap("moving", namespace()).execute(), read);
        assertThat(cleanups).containsExactly("new:moving");
    }

    /**
     * Its slot is assigned to this replica but not yet active (another replica still drains it) when it leaves by
     * its labels: it is kept, and released once the slot becomes active here.
     */
    @Test
    void anObjectThatLeavesInASlotAssignedHereButNotYetActiveIsReleasedOnceTheSlotIsActive() throws Exception {
        CoreV1Api core = core();
        V1ConfigMap held = configMap("early-leaver", "sharded-early");
        held.getMetadata().addFinalizersItem(FINALIZER); // as the replica that held its slot before left it
        core.createNamespacedConfigMap(namespace(), held).execute();
        Watcher<V1ConfigMap> configMaps = shardedConfigMaps("sharded-early");
        Reconciler<V1ConfigMap> replica = start(reconciler("joining", configMaps, true));
        ShardParticipant participant = replica.participant(configMaps::reshard);
        participant.assign(Slots.all());
        await().atMost(WAIT).until(() -> configMaps.store().list().size() == 1);
        EventRecorder<V1ConfigMap> recorder = new EventRecorder<>();
        configMaps.addListener(recorder);

        V1ConfigMap unlabelled = core.readNamespacedConfigMap("early-leaver", namespace()).execute();
        unlabelled.getMetadata().getLabels().remove("finalizers");
        core.replaceNamespacedConfigMap("early-leaver", namespace(), unlabelled).execute();
        await().atMost(WAIT).until(() -> recorder.events().contains("Delete(early-leaver)"));
        awaitIdle(replica);
        Callable<KubernetesObject> read = () -> core.readNamespacedConfigMap("early-leaver", namespace()).execute();
        assertThat(read.call().getMetadata().getFinalizers()).as("not released before its slot is active")
                .containsExactly(FINALIZER);
        assertThat(cleanups).isEmpty();

        participant.widen(Slots.all());

        awaitFinalizer(read, false);
        assertThat(cleanups).containsExactly("joining:early-leaver");
        awaitDeleted(() -> core.deleteNamespacedConfigMap("early-leaver", namespace()).execute(), read);
    }

    private Watcher<V1ConfigMap> shardedConfigMaps(String scenario) {
        return watcher(ResourceType.of(V1ConfigMap.class), server().apiClient(),
                WatchScope.namespace(namespace()).withLabelSelector("finalizers=" + scenario), LIST_WATCH,
                ShardFilter.BY_OBJECT_UID);
    }

    /** A started watcher; {@code shardFilter}: {@code null} for one that is not sharded. */
    private <T extends KubernetesObject> Watcher<T> watcher(ResourceType<T> type, ApiClient client, WatchScope scope,
            WatchOptions options, ShardFilter shardFilter) {
        WatcherBuilder<T> builder = HttpWatchApi.watcher(client, type).scope(scope).options(options)
                .backOff(ConformanceScenarios.QUICK);
        if (shardFilter != null) {
            builder.shardFilter(shardFilter);
        }
        Watcher<T> watcher = builder.build();
        watchers.add(watcher);
        watcher.start();
        return watcher;
    }

    /** A reconciler with {@link #FINALIZER} whose cleanup records {@code name:object}. */
    private <T extends KubernetesObject> ReconcilerBuilder<T> reconciler(String name, Watcher<T> primary,
            boolean sharded) {
        ReconcilerBuilder<T> builder = Reconciler.<T>builder(name, primary, (object, context) -> ReconcileResult.done())
                .finalizer(new Finalizer<>(FINALIZER,
                        (object, context) -> cleanups.add(name + ":" + object.getMetadata().getName())))
                .apiClient(server().apiClient());
        return sharded ? builder.sharded() : builder;
    }

    private <T extends KubernetesObject> Reconciler<T> start(ReconcilerBuilder<T> builder) {
        Reconciler<T> reconciler = builder.build();
        reconcilers.add(reconciler);
        reconciler.start();
        return reconciler;
    }

    /** Waits until the object carries {@link #FINALIZER} ({@code present}), or carries no finalizer. */
    private static void awaitFinalizer(Callable<KubernetesObject> read, boolean present) {
        await().atMost(WAIT).until(() -> {
            List<String> finalizers = read.call().getMetadata().getFinalizers();
            return present ? finalizers != null && finalizers.contains(FINALIZER)
                    : finalizers == null || finalizers.isEmpty();
        });
    }

    /** Deletes the object and waits until the server no longer has it. */
    private static void awaitDeleted(Callable<?> delete, Callable<KubernetesObject> read) throws Exception {
        delete.call();
        await().atMost(WAIT).until(() -> {
            try {
                read.call();
                return false;
            } catch (ApiException e) {
                return e.getCode() == 404;
            }
        });
    }

    /** Waits until no key of {@code reconciler} is queued, scheduled or being reconciled. */
    private static void awaitIdle(Reconciler<?> reconciler) {
        await().atMost(WAIT).until(() -> {
            ReconcilerSnapshot snapshot = reconciler.snapshot();
            return snapshot.queueDepth() == 0 && snapshot.scheduled() == 0 && snapshot.inFlight() == 0;
        });
    }

    private CoreV1Api core() {
        return new CoreV1Api(server().apiClient());
    }

    private String namespace() {
        return server().namespace();
    }

    private V1ConfigMap configMap(String name, String scenario) {
        return new V1ConfigMap().metadata(new V1ObjectMeta().namespace(namespace()).name(name)
                .putLabelsItem("finalizers", scenario));
    }

    private V1PodTemplate podTemplate(String name, String scenario) {
        return new V1PodTemplate().metadata(new V1ObjectMeta().namespace(namespace()).name(name)
                .putLabelsItem("finalizers", scenario))
                .template(new V1PodTemplateSpec().spec(new V1PodSpec().containers(List.of(container()))));
    }

    private static V1Container container() {
        return new V1Container().name("main").image("registry.invalid/none:1");
    }
}
