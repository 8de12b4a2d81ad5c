package dev.watchkeeper.test.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.watchkeeper.internal.backoff.BackOffSettings;
import java.util.concurrent.atomic.AtomicInteger;
import dev.watchkeeper.store.ObjectKey;
import dev.watchkeeper.reconcile.ReconcileContext;
import dev.watchkeeper.internal.reconcile.Finalizer;
import dev.watchkeeper.internal.reconcile.Reconciler;
import dev.watchkeeper.internal.reconcile.ReconcileOutcome;
import dev.watchkeeper.reconcile.ReconcileResult;
import dev.watchkeeper.reconcile.TerminalReconcileException;
import dev.watchkeeper.reconcile.Trigger;
import dev.watchkeeper.internal.shard.HashRange;
import dev.watchkeeper.internal.shard.ShardRanges;
import dev.watchkeeper.internal.shard.UidHash;
import dev.watchkeeper.internal.registry.ReconcilerDeclaration;
import dev.watchkeeper.internal.registry.SecondaryDeclaration;
import dev.watchkeeper.internal.registry.RegistryServices;
import dev.watchkeeper.internal.registry.WatcherSpec;
import dev.watchkeeper.internal.registry.WatchkeeperRegistry;
import io.kubernetes.client.openapi.models.V1Namespace;
import java.util.Set;
import dev.watchkeeper.internal.reconcile.DefaultReconcileContext;
import dev.watchkeeper.internal.backoff.TimeSource;
import dev.watchkeeper.resource.PartialObjectMetadata;
import dev.watchkeeper.internal.resource.ResourceType;
import dev.watchkeeper.test.EventRecorder;
import dev.watchkeeper.internal.watch.InitialListStrategy;
import dev.watchkeeper.internal.watch.ListSemantics;
import dev.watchkeeper.watch.WatchError;
import dev.watchkeeper.internal.watch.WatchOptions;
import dev.watchkeeper.internal.watch.WatchScope;
import dev.watchkeeper.internal.watch.Watcher;
import dev.watchkeeper.watch.WatcherPhase;
import dev.watchkeeper.internal.watch.http.HttpWatchApi;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ConfigMapList;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodTemplate;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.util.PatchUtils;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import okhttp3.HttpUrl;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Every scenario here runs against the in-memory server and against the real control plane (one subclass each):
 * the real server is the judge of what the in-memory one, and the watcher, must do. Each scenario keeps to its own
 * objects (a {@code scenario} label or its own names) in the class's namespace.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ConformanceScenarios {

    static final Duration WAIT = Duration.ofSeconds(60);
    /** Short waits, so recovery takes little real time; the backoff curve itself is pinned by the stub tests. */
    static final BackOffSettings QUICK = new BackOffSettings(Duration.ofMillis(50), 2.0, Duration.ofMillis(400),
            0.5, Duration.ofSeconds(120), null);

    private final List<Watcher<?>> watchers = new ArrayList<>();

    /** The server of this run. */
    abstract ServerUnderTest server();

    @AfterEach
    void closeWatchers() {
        watchers.forEach(Watcher::close);
        watchers.clear();
    }

    // ---------------------------------------------------------------- 1. paging and selectors

    @Test
    void pagesThroughMoreThanAThousandObjects() throws Exception {
        int count = 1_050;
        createConfigMaps(IntStream.range(0, count).mapToObj(i -> configMap("page-" + i, "paging")).toList());
        RequestLog log = new RequestLog();
        EventRecorder<V1ConfigMap> recorder = new EventRecorder<>();
        Watcher<V1ConfigMap> watcher = start(ResourceType.of(V1ConfigMap.class), log, recorder,
                scope().withLabelSelector("scenario=paging"), listWatch().withPageSize(100));

        recorder.awaitEvent("InitDone", WAIT);
        assertThat(watcher.store().list()).hasSize(count);
        List<HttpUrl> lists = log.lists("configmaps");
        assertThat(lists).hasSize(11).allSatisfy(url -> assertThat(url.queryParameter("limit")).isEqualTo("100"));
        assertThat(lists.get(0).queryParameter("continue")).isNull();
        assertThat(lists.subList(1, lists.size())).allSatisfy(url -> assertThat(url.queryParameter("continue")).isNotBlank());
    }

    @Test
    void followsLabelAndFieldSelectorsAsObjectsMoveInAndOut() throws Exception {
        CoreV1Api core = new CoreV1Api(server().apiClient());
        core.createNamespacedConfigMap(namespace(), configMap("sel-a", "selectors").metadata(
                configMap("sel-a", "selectors").getMetadata().putLabelsItem("tier", "front"))).execute();
        core.createNamespacedConfigMap(namespace(), configMap("sel-b", "selectors").metadata(
                configMap("sel-b", "selectors").getMetadata().putLabelsItem("tier", "back"))).execute();
        core.createNamespacedConfigMap(namespace(), configMap("sel-excluded", "selectors").metadata(
                configMap("sel-excluded", "selectors").getMetadata().putLabelsItem("tier", "front"))).execute();
        EventRecorder<V1ConfigMap> recorder = new EventRecorder<>();
        Watcher<V1ConfigMap> watcher = start(ResourceType.of(V1ConfigMap.class), new RequestLog(), recorder,
                scope().withLabelSelector("scenario=selectors,tier=front").withFieldSelector("metadata.name!=sel-excluded"),
                listWatch());
        recorder.awaitEvent("InitDone", WAIT);

        relabel(core, "sel-b", "front");
        recorder.awaitEvent("Apply(sel-b)", WAIT);
        relabel(core, "sel-a", "back");
        recorder.awaitEvent("Delete(sel-a)", WAIT);

        assertThat(recorder.events()).containsExactly("Init", "InitApply(sel-a)", "InitDone", "Apply(sel-b)",
                "Delete(sel-a)");
        assertThat(watcher.store().list()).extracting(c -> c.getMetadata().getName()).containsExactly("sel-b");
    }

    @Test
    void aContinuedListShowsTheObjectsAsTheyWereAtItsFirstPage() throws Exception {
        CoreV1Api core = new CoreV1Api(server().apiClient());
        for (int i = 0; i < 6; i++) {
            core.createNamespacedConfigMap(namespace(), configMap("snap-" + i, "snapshot")).execute();
        }
        Map<String, String> versions = new LinkedHashMap<>();
        core.listNamespacedConfigMap(namespace()).labelSelector("scenario=snapshot").execute().getItems()
                .forEach(c -> versions.put(c.getMetadata().getName(), c.getMetadata().getResourceVersion()));
        V1ConfigMapList first = core.listNamespacedConfigMap(namespace()).labelSelector("scenario=snapshot")
                .limit(2).execute();

        V1ConfigMap changed = core.readNamespacedConfigMap("snap-2", namespace()).execute();
        core.replaceNamespacedConfigMap("snap-2", namespace(), changed.data(Map.of("v", "2"))).execute();
        core.deleteNamespacedConfigMap("snap-3", namespace()).execute();
        core.createNamespacedConfigMap(namespace(), configMap("snap-35", "snapshot")).execute();
        core.deleteNamespacedConfigMap("snap-4", namespace()).execute();
        core.createNamespacedConfigMap(namespace(), configMap("snap-4", "snapshot")).execute();

        Map<String, String> listed = new LinkedHashMap<>();
        first.getItems().forEach(c -> listed.put(c.getMetadata().getName(), c.getMetadata().getResourceVersion()));
        String token = first.getMetadata().getContinue();
        while (token != null && !token.isEmpty()) {
            V1ConfigMapList page = core.listNamespacedConfigMap(namespace()).labelSelector("scenario=snapshot")
                    .limit(2)._continue(token).execute();
            assertThat(page.getMetadata().getResourceVersion()).as("every page carries the first page's version")
                    .isEqualTo(first.getMetadata().getResourceVersion());
            page.getItems().forEach(c -> {
                listed.put(c.getMetadata().getName(), c.getMetadata().getResourceVersion());
                assertThat(c.getData()).as(c.getMetadata().getName()).containsEntry("v", "1");
            });
            token = page.getMetadata().getContinue();
        }
        assertThat(listed).as("one snapshot: no change made after the first page shows").isEqualTo(versions);
    }

    // ---------------------------------------------------------------- 2. resume and bookmarks

    @Test
    void resumesFromTheLastVersionWhenTheServerEndsAWatch() throws Exception {
        CoreV1Api core = new CoreV1Api(server().apiClient());
        core.createNamespacedConfigMap(namespace(), configMap("resume-a", "resume")).execute();
        RequestLog log = new RequestLog();
        EventRecorder<V1ConfigMap> recorder = new EventRecorder<>();
        Watcher<V1ConfigMap> watcher = start(ResourceType.of(V1ConfigMap.class), log, recorder,
                // Not 1 s: a real server ends such a watch after ~998 ms, which trips the very-short-watch guard.
                scope().withLabelSelector("scenario=resume"), listWatch().withTimeout(Duration.ofSeconds(2)));
        recorder.awaitEvent("InitDone", WAIT);

        await().atMost(WAIT).until(() -> log.watches("configmaps").size() >= 3);
        V1ConfigMap changed = core.readNamespacedConfigMap("resume-a", namespace()).execute().data(Map.of("v", "2"));
        String version = core.replaceNamespacedConfigMap("resume-a", namespace(), changed).execute()
                .getMetadata().getResourceVersion();
        await().atMost(WAIT).until(() -> watcher.store().list().get(0).getMetadata().getResourceVersion()
                .equals(version));

        assertThat(log.lists("configmaps")).hasSize(1);
        assertThat(watcher.snapshot().counts().relists()).isZero();
        List<Long> resumedFrom = log.watches("configmaps").stream()
                .map(url -> Long.parseLong(url.queryParameter("resourceVersion"))).toList();
        assertThat(resumedFrom).isSorted().allSatisfy(rv -> assertThat(rv).isPositive());
        assertThat(recorder.events()).as("errors: %s", recorder.errors())
                .containsExactly("Init", "InitApply(resume-a)", "InitDone", "Apply(resume-a)");
    }

    @Test
    void bookmarksAdvanceTheResumeVersionPastChangesTheSelectorHides() throws Exception {
        CoreV1Api core = new CoreV1Api(server().apiClient());
        core.createNamespacedConfigMap(namespace(), configMap("bookmark-a", "bookmark")).execute();
        RequestLog log = new RequestLog();
        EventRecorder<V1ConfigMap> recorder = new EventRecorder<>();
        // A real API server bookmarks a watch two seconds before its timeout, so the timeout must exceed that.
        start(ResourceType.of(V1ConfigMap.class), log, recorder, scope().withLabelSelector("scenario=bookmark"),
                listWatch().withTimeout(Duration.ofSeconds(5)));
        recorder.awaitEvent("InitDone", WAIT);

        long hidden = Long.parseLong(core.createNamespacedConfigMap(namespace(), configMap("bookmark-hidden", "other"))
                .execute().getMetadata().getResourceVersion());

        // A real API server bookmarks a watch when a change its selector hides arrives while the watch is open, so
        // the hidden object keeps changing until a watch resumes from past the first change.
        await().atMost(WAIT).pollInterval(Duration.ofSeconds(1)).untilAsserted(() -> {
            V1ConfigMap other = core.readNamespacedConfigMap("bookmark-hidden", namespace()).execute();
            core.replaceNamespacedConfigMap("bookmark-hidden", namespace(),
                    other.data(Map.of("v", other.getMetadata().getResourceVersion()))).execute();
            assertThat(log.watches("configmaps"))
                    .extracting(url -> Long.parseLong(url.queryParameter("resourceVersion")))
                    .as("watches resumed from, hidden change at %d", hidden).anyMatch(rv -> rv >= hidden);
        });
        assertThat(log.watches("configmaps")).allSatisfy(
                url -> assertThat(url.queryParameter("allowWatchBookmarks")).isEqualTo("true"));
        assertThat(log.lists("configmaps")).hasSize(1);
        assertThat(recorder.events()).containsExactly("Init", "InitApply(bookmark-a)", "InitDone");
    }

    // ---------------------------------------------------------------- 3. compaction

    @Test
    void relistsOnceAfterACompactionAndReportsObjectsDeletedMeanwhileAsDeletes() throws Exception {
        CoreV1Api core = new CoreV1Api(server().apiClient());
        for (String name : List.of("pt-a", "pt-b", "pt-c")) {
            core.createNamespacedPodTemplate(namespace(), podTemplate(name)).execute();
        }
        RequestLog log = new RequestLog();
        EventRecorder<V1PodTemplate> recorder = new EventRecorder<>();
        Watcher<V1PodTemplate> watcher = start(ResourceType.of(V1PodTemplate.class), log, recorder, scope(),
                listWatch().withTimeout(Duration.ofSeconds(2)));
        recorder.awaitEvent("InitDone", WAIT);
        await().atMost(WAIT).until(() -> log.watches("podtemplates").size() >= 1);

        // The watcher loses its connection; while it is away objects change and history is compacted.
        log.refuse(true);
        int watchesBefore = log.watches("podtemplates").size();
        await().atMost(WAIT).until(() -> log.watches("podtemplates").size() > watchesBefore
                && watcher.snapshot().phase() == WatcherPhase.BACKING_OFF);
        core.deleteNamespacedPodTemplate("pt-a", namespace()).execute();
        V1PodTemplate b = core.readNamespacedPodTemplate("pt-b", namespace()).execute();
        b.getMetadata().putLabelsItem("changed", "yes");
        core.replaceNamespacedPodTemplate("pt-b", namespace(), b).execute();
        core.createNamespacedPodTemplate(namespace(), podTemplate("pt-d")).execute();
        server().compact();
        log.refuse(false);

        await().atMost(WAIT).untilAsserted(() -> assertThat(namesAndVersions(watcher.store().list()))
                .containsExactlyInAnyOrderElementsOf(namesAndVersions(
                        core.listNamespacedPodTemplate(namespace()).execute().getItems())));
        assertThat(recorder.errors()).extracting(WatchError::code).contains(410);
        assertThat(watcher.snapshot().counts().relists()).isEqualTo(1);
        assertThat(watcher.store().list()).extracting(t -> t.getMetadata().getName())
                .containsExactlyInAnyOrder("pt-b", "pt-c", "pt-d");
        List<String> events = recorder.events();
        List<String> relist = events.subList(events.lastIndexOf("Init"), events.size());
        assertThat(relist).as("the relist reports pt-a, deleted meanwhile, before its InitDone")
                .containsSubsequence("Delete(pt-a, final state unknown)", "InitDone")
                .containsOnlyOnce("Delete(pt-a, final state unknown)");
    }

    // ---------------------------------------------------------------- 3b. list semantics (resourceVersion on lists)

    @Test
    void aListAtAnyVersionIsOneDocumentAndOneNotOlderThanAVersionIsTheCurrentState() throws Exception {
        int count = 5;
        createConfigMaps(IntStream.range(0, count).mapToObj(i -> configMap("any-" + i, "any-version")).toList());
        CoreV1Api core = new CoreV1Api(server().apiClient());
        V1ConfigMapList consistent = core.listNamespacedConfigMap(namespace()).labelSelector("scenario=any-version")
                .limit(2).execute();
        assertThat(consistent.getItems()).as("a consistent list pages").hasSize(2);
        assertThat(consistent.getMetadata().getContinue()).isNotBlank();
        String listed = consistent.getMetadata().getResourceVersion();

        // The watch cache may trail the write by a moment; what it answers is one document whatever the limit.
        await().atMost(WAIT).untilAsserted(() -> {
            V1ConfigMapList any = core.listNamespacedConfigMap(namespace()).labelSelector("scenario=any-version")
                    .resourceVersion("0").limit(2).execute();
            assertThat(any.getItems()).hasSize(count);
            assertThat(any.getMetadata().getContinue()).isNullOrEmpty();
        });
        V1ConfigMapList notOlder = core.listNamespacedConfigMap(namespace()).labelSelector("scenario=any-version")
                .resourceVersion(listed).execute();
        assertThat(notOlder.getItems()).hasSize(count);
        assertThat(notOlder.getMetadata().getContinue()).isNullOrEmpty();
        assertThat(Long.parseLong(notOlder.getMetadata().getResourceVersion())).isGreaterThanOrEqualTo(
                Long.parseLong(listed));
        assertThatThrownBy(() -> core.listNamespacedConfigMap(namespace()).resourceVersion(listed)
                ._continue(consistent.getMetadata().getContinue()).limit(2).execute())
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.getCode()).isEqualTo(400));
    }

    @Test
    void aListAheadOfTheServerIsTooLargeAndAnExactOneCompactedAwayIsExpired() throws Exception {
        CoreV1Api core = new CoreV1Api(server().apiClient());
        try {
            tooLargeAndExpiredLists(core);
        } finally {
            deletePodTemplates(core, "exact");
        }
    }

    private void tooLargeAndExpiredLists(CoreV1Api core) throws Exception {
        core.createNamespacedPodTemplate(namespace(), podTemplate("exact-a", "exact")).execute();
        String listed = core.listNamespacedPodTemplate(namespace()).labelSelector("scenario=exact").execute()
                .getMetadata().getResourceVersion();
        String ahead = Long.toString(Long.parseLong(listed) + 1_000_000);

        assertThatThrownBy(() -> core.listNamespacedConfigMap(namespace()).resourceVersion(ahead).execute())
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.getCode()).isEqualTo(504);
                    JsonObject status = JsonParser.parseString(e.getResponseBody()).getAsJsonObject();
                    assertThat(status.get("reason").getAsString()).isEqualTo("Timeout");
                    assertThat(status.get("message").getAsString())
                            .startsWith("Timeout: Too large resource version: " + ahead + ", current: ");
                    assertThat(status.getAsJsonObject("details").getAsJsonArray("causes").get(0).getAsJsonObject()
                            .get("reason").getAsString()).isEqualTo("ResourceVersionTooLarge");
                    assertThat(e.getResponseHeaders().get("Retry-After")).containsExactly("1");
                });

        core.createNamespacedPodTemplate(namespace(), podTemplate("exact-b", "exact")).execute();
        server().compact();
        assertThatThrownBy(() -> core.listNamespacedPodTemplate(namespace()).labelSelector("scenario=exact")
                .resourceVersion(listed).limit(1).execute()).isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.getCode()).isEqualTo(410);
                    assertThat(JsonParser.parseString(e.getResponseBody()).getAsJsonObject().get("reason")
                            .getAsString()).isEqualTo("Expired");
                });
        assertThat(core.listNamespacedPodTemplate(namespace()).labelSelector("scenario=exact")
                .resourceVersion(listed).execute().getItems())
                .as("not older than a compacted version: the current state")
                .extracting(t -> t.getMetadata().getName()).containsExactly("exact-a", "exact-b");
    }

    @Test
    void aCachedWatcherListsConfigMapsFromTheWatchCacheInOneAnswer() throws Exception {
        createConfigMaps(IntStream.range(0, 5).mapToObj(i -> configMap("cached-" + i, "cached")).toList());
        RequestLog log = new RequestLog();
        EventRecorder<V1ConfigMap> recorder = new EventRecorder<>();
        Watcher<V1ConfigMap> watcher = start(ResourceType.of(V1ConfigMap.class), log, recorder,
                scope().withLabelSelector("scenario=cached"), cached().withPageSize(2));

        await().atMost(WAIT).until(() -> watcher.store().list().size() == 5);
        assertThat(log.lists("configmaps")).singleElement().satisfies(url -> {
            assertThat(url.queryParameter("resourceVersion")).isEqualTo("0");
            assertThat(url.queryParameter("limit")).isEqualTo("2");
        });
    }

    @Test
    void aCachedWatcherWithoutAWatchCachePagesRelistsAtItsVersionAndFallsBackWhenThatIsExpired() throws Exception {
        CoreV1Api core = new CoreV1Api(server().apiClient());
        for (String name : List.of("cpt-a", "cpt-b", "cpt-c")) {
            core.createNamespacedPodTemplate(namespace(), podTemplate(name, "cached-pt")).execute();
        }
        try {
            cachedWatcherWithoutAWatchCache(core);
        } finally {
            deletePodTemplates(core, "cached-pt");
        }
    }

    private void cachedWatcherWithoutAWatchCache(CoreV1Api core) throws Exception {
        RequestLog log = new RequestLog();
        EventRecorder<V1PodTemplate> recorder = new EventRecorder<>();
        Watcher<V1PodTemplate> watcher = start(ResourceType.of(V1PodTemplate.class), log, recorder,
                scope().withLabelSelector("scenario=cached-pt"),
                cached().withPageSize(2).withTimeout(Duration.ofSeconds(2)));
        recorder.awaitEvent("InitDone", WAIT);
        assertThat(log.lists("podtemplates")).extracting(url -> url.queryParameter("resourceVersion"))
                .as("podtemplates have no watch cache: the list at any version pages").containsExactly("0", null);
        await().atMost(WAIT).until(() -> watcher.snapshot().resourceVersion() != null);
        long synced = Long.parseLong(watcher.snapshot().resourceVersion());

        log.refuse(true);
        int watchesBefore = log.watches("podtemplates").size();
        await().atMost(WAIT).until(() -> log.watches("podtemplates").size() > watchesBefore
                && watcher.snapshot().phase() == WatcherPhase.BACKING_OFF);
        core.deleteNamespacedPodTemplate("cpt-a", namespace()).execute();
        core.createNamespacedPodTemplate(namespace(), podTemplate("cpt-d", "cached-pt")).execute();
        server().compact();
        log.refuse(false);

        await().atMost(WAIT).untilAsserted(() -> assertThat(watcher.store().list())
                .extracting(t -> t.getMetadata().getName()).containsExactlyInAnyOrder("cpt-b", "cpt-c", "cpt-d"));
        List<HttpUrl> relists = log.lists("podtemplates").subList(2, log.lists("podtemplates").size());
        assertThat(Long.parseLong(relists.get(0).queryParameter("resourceVersion")))
                .as("the relist asks from the last synced version").isGreaterThanOrEqualTo(synced);
        assertThat(relists.get(0).queryParameter("limit")).isEqualTo("2");
        assertThat(relists.subList(1, relists.size())).as("then a consistent paged list").isNotEmpty()
                .allSatisfy(url -> {
                    assertThat(url.queryParameter("resourceVersion")).isNull();
                    assertThat(url.queryParameter("limit")).isEqualTo("2");
                });
        assertThat(recorder.errors()).extracting(WatchError::label).contains("Error(InitialListFailed 410)");
    }

    // ---------------------------------------------------------------- 4. streaming initial list

    @Test
    void streamsTheInitialListAndEndsItAtTheBookmark() throws Exception {
        createConfigMaps(List.of(configMap("stream-a", "stream"), configMap("stream-b", "stream"),
                configMap("stream-c", "stream")));
        RequestLog log = new RequestLog();
        EventRecorder<V1ConfigMap> recorder = new EventRecorder<>();
        Watcher<V1ConfigMap> watcher = start(ResourceType.of(V1ConfigMap.class), log, recorder,
                scope().withLabelSelector("scenario=stream"),
                WatchOptions.defaults().withInitialList(InitialListStrategy.STREAMING));
        recorder.awaitEvent("InitDone", WAIT);

        assertThat(recorder.events()).first().isEqualTo("Init");
        assertThat(recorder.events().subList(1, 4))
                .containsExactlyInAnyOrder("InitApply(stream-a)", "InitApply(stream-b)", "InitApply(stream-c)");
        assertThat(recorder.events()).last().isEqualTo("InitDone");
        assertThat(log.lists("configmaps")).isEmpty();
        HttpUrl watch = log.watches("configmaps").get(0);
        assertThat(watch.queryParameter("sendInitialEvents")).isEqualTo("true");
        assertThat(watch.queryParameter("resourceVersionMatch")).isEqualTo("NotOlderThan");
        assertThat(watch.queryParameter("allowWatchBookmarks")).isEqualTo("true");
        await().atMost(WAIT).until(() -> watcher.snapshot().synced());
    }

    @Test
    void autoFallsBackToListWatchWhenTheServerRefusesStreamingLists() throws Exception {
        ApiClient refusing = server().withoutWatchList();
        new CoreV1Api(refusing).createNamespacedConfigMap(namespace(), configMap("auto-a", "auto")).execute();
        RequestLog log = new RequestLog();
        EventRecorder<V1ConfigMap> recorder = new EventRecorder<>();
        Watcher<V1ConfigMap> watcher = start(refusing, ResourceType.of(V1ConfigMap.class), log, recorder,
                scope().withLabelSelector("scenario=auto"),
                WatchOptions.defaults().withInitialList(InitialListStrategy.AUTO));
        recorder.awaitEvent("InitDone", WAIT);

        assertThat(recorder.errors()).extracting(WatchError::code).containsExactly(422);
        assertThat(recorder.events()).endsWith("Init", "InitApply(auto-a)", "InitDone");
        assertThat(log.watches("configmaps").get(0).queryParameter("sendInitialEvents")).isEqualTo("true");
        assertThat(log.lists("configmaps")).hasSize(1);
        assertThat(watcher.store().list()).extracting(c -> c.getMetadata().getName()).containsExactly("auto-a");
    }

    // ---------------------------------------------------------------- 5. custom resources

    @Test
    void recoversWhenTheCrdAppearsAndBumpsGenerationOnSpecChangesOnly() throws Exception {
        CustomResources gadgets = new CustomResources(server().apiClient(), "gadgets", "Gadget");
        EventRecorder<DynamicKubernetesObject> recorder = new EventRecorder<>();
        Watcher<DynamicKubernetesObject> watcher = start(gadgets.type(), new RequestLog(), recorder, scope(),
                listWatch());
        await().atMost(WAIT).until(() -> watcher.snapshot().lastError() != null);
        assertThat(watcher.snapshot().lastError().code()).isEqualTo(404);
        assertThat(watcher.snapshot().lastError().message())
                .contains("is the CRD gadgets.conformance.watchkeeper.dev installed?");

        gadgets.define();
        try {
            await().atMost(WAIT).until(() -> watcher.snapshot().synced());
            DynamicKubernetesApi api = gadgets.api();
            DynamicKubernetesObject created = api.create(gadgets.object(namespace(), "g1", Map.of("size", 1)))
                    .throwsApiException().getObject();
            assertThat(created.getMetadata().getGeneration()).isEqualTo(1);

            created.getRaw().add("status", gadgets.json(Map.of("phase", "Ready")));
            DynamicKubernetesObject withStatus = api.updateStatus(created, o -> o.getRaw().getAsJsonObject("status"))
                    .throwsApiException().getObject();
            assertThat(withStatus.getMetadata().getGeneration()).isEqualTo(1);
            assertThat(withStatus.getRaw().getAsJsonObject("status").get("phase").getAsString()).isEqualTo("Ready");

            withStatus.getRaw().add("spec", gadgets.json(Map.of("size", 2)));
            DynamicKubernetesObject respecified = api.update(withStatus).throwsApiException().getObject();
            assertThat(respecified.getMetadata().getGeneration()).isEqualTo(2);
            assertThat(respecified.getRaw().getAsJsonObject("status").get("phase").getAsString()).isEqualTo("Ready");

            await().atMost(WAIT).untilAsserted(() -> assertThat(watcher.store().list())
                    .extracting(o -> o.getMetadata().getGeneration()).containsExactly(2L));
            assertThat(recorder.events()).containsSubsequence("InitDone", "Apply(g1)", "Apply(g1)", "Apply(g1)");
        } finally {
            gadgets.undefine();
        }
    }

    // ---------------------------------------------------------------- 6. RBAC

    @Test
    void forbiddenUntilGrantedThenRetryNowRecoversAtOnce() {
        // Long delays: only retryNow can bring the watcher back within the test's wait.
        BackOffSettings slow = new BackOffSettings(Duration.ofMinutes(10), 2.0, Duration.ofMinutes(30), 0.0,
                Duration.ofHours(1), null);
        Watcher<V1ConfigMap> watcher = HttpWatchApi.watcher(new RequestLog().attachTo(server().restrictedClient()),
                        ResourceType.of(V1ConfigMap.class))
                .name("rbac").scope(scope()).options(listWatch()).backOff(slow).build();
        watchers.add(watcher);
        watcher.start();

        await().atMost(WAIT).until(() -> watcher.snapshot().phase() == WatcherPhase.BACKING_OFF);
        WatchError error = watcher.snapshot().lastError();
        assertThat(error.code()).isEqualTo(403);
        assertThat(error.message()).contains("grant list and watch");
        assertThat(watcher.snapshot().currentDelay()).isGreaterThanOrEqualTo(Duration.ofMinutes(10));

        server().grantConfigMaps();
        // RBAC grants reach the authorizer within moments; each retry is what the endpoint's retry-now does.
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(500)).until(() -> {
            if (!watcher.snapshot().synced()) {
                watcher.retryNow();
            }
            return watcher.snapshot().synced();
        });
        assertThat(watcher.snapshot().phase()).isEqualTo(WatcherPhase.WATCHING);
    }

    // ---------------------------------------------------------------- 8. writes

    @Test
    void createAndUpdateConflictWith409() throws Exception {
        CoreV1Api core = new CoreV1Api(server().apiClient());
        V1ConfigMap created = core.createNamespacedConfigMap(namespace(), configMap("write-a", "writes")).execute();
        assertThatThrownBy(() -> core.createNamespacedConfigMap(namespace(), configMap("write-a", "writes")).execute())
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.getCode()).isEqualTo(409);
                    assertThat(e.getResponseBody()).contains("\"reason\":\"AlreadyExists\"");
                });
        core.replaceNamespacedConfigMap("write-a", namespace(),
                core.readNamespacedConfigMap("write-a", namespace()).execute().data(Map.of("v", "2"))).execute();
        assertThatThrownBy(() -> core.replaceNamespacedConfigMap("write-a", namespace(), created.data(Map.of("v", "3")))
                .execute())
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.getCode()).isEqualTo(409);
                    assertThat(e.getResponseBody()).contains("\"reason\":\"Conflict\"");
                });
        assertThat(core.readNamespacedConfigMap("write-a", namespace()).execute().getData()).containsEntry("v", "2");
    }

    @Test
    void serverSideApplyRecordsTheManagerAndRefusesToTakeFieldsWithoutForce() throws Exception {
        ApiClient client = server().apiClient();
        V1ConfigMap applied = apply(client, "apply-a", "first", Map.of("owned", "1"), false);
        assertThat(applied.getData()).containsEntry("owned", "1");
        // client-java drops managedFields from its models, so read the object as plain JSON.
        JsonObject stored = new DynamicKubernetesApi("", "v1", "configmaps", client).get(namespace(), "apply-a")
                .throwsApiException().getObject().getRaw();
        JsonObject entry = stored.getAsJsonObject("metadata").getAsJsonArray("managedFields").get(0).getAsJsonObject();
        assertThat(entry.get("manager").getAsString()).isEqualTo("first");
        assertThat(entry.get("operation").getAsString()).isEqualTo("Apply");
        assertThat(entry.getAsJsonObject("fieldsV1").toString()).isEqualTo("{\"f:data\":{\"f:owned\":{}}}");

        assertThatThrownBy(() -> apply(client, "apply-a", "second", Map.of("owned", "2"), false))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.getCode()).isEqualTo(409);
                    assertThat(e.getResponseBody()).contains("first");
                });
        V1ConfigMap forced = apply(client, "apply-a", "second", Map.of("owned", "2"), true);
        assertThat(forced.getData()).containsEntry("owned", "2");
    }

    @Test
    void aReconcilersApplyAndStatusUpdateSurviveAnotherWriter() throws Exception {
        CustomResources widgets = new CustomResources(server().apiClient(), "widgets", "Widget");
        widgets.define();
        try {
            DynamicKubernetesApi api = widgets.api();
            DynamicKubernetesObject owner = api.create(widgets.object(namespace(), "w1", Map.of("size", 1)))
                    .throwsApiException().getObject();
            RequestLog log = new RequestLog();
            ReconcileContext context = new DefaultReconcileContext("widgets", ObjectKey.of(owner), 1,
                    log.attachTo(server().apiClient()), widgets.type(), owner, Map.of(), TimeSource.system());

            V1ConfigMap applied = context.applyOwned(new V1ConfigMap()
                    .metadata(new V1ObjectMeta().namespace(namespace()).name("w1-settings")).data(Map.of("size", "1")));
            assertThat(applied.getData()).containsEntry("size", "1");
            assertThat(applied.getMetadata().getOwnerReferences()).singleElement().satisfies(reference -> {
                assertThat(reference.getUid()).isEqualTo(owner.getMetadata().getUid());
                assertThat(reference.getController()).isTrue();
            });
            okhttp3.Request patch = log.withMethod("PATCH").get(0);
            assertThat(patch.url().queryParameter("fieldManager")).isEqualTo("widgets");
            assertThat(patch.url().queryParameter("force")).isEqualTo("true");
            assertThat(patch.body().contentType().toString()).startsWith("application/apply-patch+yaml");

            AtomicInteger calls = new AtomicInteger();
            DynamicKubernetesObject ready = context.updateStatus(owner, widget -> {
                if (calls.incrementAndGet() == 1) { // another writer changes the spec between read and write
                    DynamicKubernetesObject fresh = api.get(namespace(), "w1").getObject();
                    fresh.getRaw().add("spec", widgets.json(Map.of("size", 2)));
                    try {
                        api.update(fresh).throwsApiException();
                    } catch (ApiException e) {
                        throw new IllegalStateException("the other writer failed: " + e.getCode(), e);
                    }
                }
                widget.getRaw().add("status", widgets.json(Map.of("phase", "Ready")));
            });
            assertThat(calls).as("one conflict, one retry on a fresh read").hasValue(2);
            assertThat(ready.getRaw().getAsJsonObject("status").get("phase").getAsString()).isEqualTo("Ready");
            assertThat(ready.getRaw().getAsJsonObject("spec").get("size").getAsInt())
                    .as("the other writer's change survives").isEqualTo(2);

            int writes = log.withMethod("PUT").size();
            context.updateStatus(ready, widget -> widget.getRaw().add("status", widgets.json(Map.of("phase", "Ready"))));
            assertThat(log.withMethod("PUT")).as("an unchanged status is not written").hasSize(writes);
        } finally {
            widgets.undefine();
        }
    }

    @Test
    void aReconcilerOfANamespaceSetReconcilesTheObjectsOfItsNamespacesOnly() throws Exception {
        List<String> set = List.of(namespace() + "-a", namespace() + "-b");
        String outside = namespace() + "-c";
        CoreV1Api core = new CoreV1Api(server().apiClient());
        List<String> namespaces = List.of(set.get(0), set.get(1), outside);
        for (String name : namespaces) {
            core.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(name))).execute();
        }
        WatchkeeperRegistry registry = new WatchkeeperRegistry(RegistryServices.of(server().apiClient()));
        List<String> reconciled = new CopyOnWriteArrayList<>();
        try {
            Reconciler<V1ConfigMap> reconciler = registry.registerReconciler(new ReconcilerDeclaration<>(
                    "namespace-set", WatcherSpec.of(V1ConfigMap.class), List.of(), (configMap, context) -> {
                        reconciled.add(ObjectKey.of(configMap).toString());
                        return ReconcileResult.done();
                    }, 1, Set.of(Trigger.ALL), null, "test", null, set, null));
            registry.start();
            for (String name : namespaces) {
                core.createNamespacedConfigMap(name, new V1ConfigMap().metadata(new V1ObjectMeta().name("settings")))
                        .execute();
            }
            await().atMost(WAIT).until(() -> reconciled.size() >= 2);
            // created after the outside object: once this one is reconciled, that one has had as long
            core.createNamespacedConfigMap(set.get(1), new V1ConfigMap().metadata(new V1ObjectMeta().name("late")))
                    .execute();
            await().atMost(WAIT).until(() -> reconciled.contains(set.get(1) + "/late"));

            assertThat(reconciled).containsExactlyInAnyOrder(set.get(0) + "/settings", set.get(1) + "/settings",
                    set.get(1) + "/late");
            assertThat(reconciler.primary().members()).extracting(watcher -> watcher.scope().namespace())
                    .containsExactlyElementsOf(set);
            assertThat(registry.watchers()).extracting(Watcher::name)
                    .containsExactly("configmaps@" + set.get(0), "configmaps@" + set.get(1));
        } finally {
            registry.stop();
            for (String name : namespaces) {
                core.deleteNamespace(name).execute();
            }
        }
    }

    /**
     * A reconciler's own writes (an apply of its primary, an applied child) come back as watch events that queue
     * nothing; another writer's change of the child still reconciles the owner, once per change.
     */
    @Test
    void aReconcilersOwnWritesWakeNothingButAnotherWritersChangeOfAChildDoes() throws Exception {
        CoreV1Api core = new CoreV1Api(server().apiClient());
        WatchkeeperRegistry registry = new WatchkeeperRegistry(RegistryServices.of(server().apiClient()));
        List<String> reconciled = new CopyOnWriteArrayList<>();
        try {
            registry.registerReconciler(new ReconcilerDeclaration<>("own-writes",
                    WatcherSpec.of(V1ConfigMap.class).labelSelector("role=parent"),
                    List.of(SecondaryDeclaration.owned(WatcherSpec.of(V1Secret.class))),
                    (parent, context) -> {
                        reconciled.add(parent.getMetadata().getResourceVersion());
                        String name = parent.getMetadata().getName();
                        context.apply(new V1ConfigMap().metadata(new V1ObjectMeta().name(name)
                                .namespace(namespace()).putAnnotationsItem("example.dev/seen", "yes")));
                        context.applyOwned(new V1Secret().metadata(new V1ObjectMeta().name(name + "-child")
                                .namespace(namespace())).putStringDataItem("from", name));
                        return ReconcileResult.done();
                    }, 1, Set.of(Trigger.ALL), null, "test", null, List.of(namespace()), null));
            registry.start();
            core.createNamespacedConfigMap(namespace(), new V1ConfigMap().metadata(new V1ObjectMeta().name("p")
                    .putLabelsItem("role", "parent"))).execute();
            await().atMost(WAIT).until(() -> registry.watchersNamed("secrets@" + namespace()).get(0).store()
                    .get(namespace(), "p-child").isPresent());

            for (int change = 1; change <= 2; change++) {
                V1Secret child = core.readNamespacedSecret("p-child", namespace()).execute();
                child.getMetadata().putLabelsItem("changed-by", "other-" + change); // a field the reconciler does
                core.replaceNamespacedSecret("p-child", namespace(), child).execute(); // not own: its apply leaves it
                int expected = 1 + change;
                await().atMost(WAIT).until(() -> reconciled.size() >= expected);
                assertThat(reconciled).as("reconciles after %d change(s) of the child by another writer", change)
                        .hasSize(expected);
            }
        } finally {
            registry.stop();
        }
    }

    /**
     * An object that leaves a label-selected reconciler's watch while carrying its finalizer is cleaned up and
     * released at once: its deletion, which the reconciler no longer sees, is not stuck on the finalizer.
     */
    @Test
    void anObjectThatLeavesTheWatchWithTheFinalizerIsReleasedAndItsDeletionNotStuck() throws Exception {
        CoreV1Api core = new CoreV1Api(server().apiClient());
        String finalizer = "conformance.watchkeeper.dev/release";
        WatchkeeperRegistry registry = new WatchkeeperRegistry(RegistryServices.of(server().apiClient()));
        List<String> cleanedUp = new CopyOnWriteArrayList<>();
        AtomicInteger reconciles = new AtomicInteger();
        try {
            registry.registerReconciler(new ReconcilerDeclaration<>("releasing",
                    WatcherSpec.of(V1ConfigMap.class).labelSelector("managed=yes"), List.of(),
                    (configMap, context) -> {
                        reconciles.incrementAndGet();
                        return ReconcileResult.done();
                    }, 1, Set.of(Trigger.ALL), null, "test", null, List.of(namespace()),
                    new Finalizer<>(finalizer, (configMap, context) -> cleanedUp.add(configMap.getMetadata().getName()))));
            registry.start();
            core.createNamespacedConfigMap(namespace(), new V1ConfigMap().metadata(new V1ObjectMeta().name("leaver")
                    .putLabelsItem("managed", "yes"))).execute();
            await().atMost(WAIT).until(() -> reconciles.get() >= 1);
            assertThat(core.readNamespacedConfigMap("leaver", namespace()).execute().getMetadata().getFinalizers())
                    .containsExactly(finalizer);

            V1ConfigMap unlabelled = core.readNamespacedConfigMap("leaver", namespace()).execute();
            unlabelled.getMetadata().getLabels().remove("managed");
            core.replaceNamespacedConfigMap("leaver", namespace(), unlabelled).execute();
            await().atMost(WAIT).until(() -> {
                List<String> finalizers = core.readNamespacedConfigMap("leaver", namespace()).execute().getMetadata()
                        .getFinalizers();
                return finalizers == null || finalizers.isEmpty();
            });
            assertThat(cleanedUp).containsExactly("leaver");

            core.deleteNamespacedConfigMap("leaver", namespace()).execute();
            await().atMost(WAIT).until(() -> {
                try {
                    core.readNamespacedConfigMap("leaver", namespace()).execute();
                    return false;
                } catch (ApiException e) {
                    return e.getCode() == 404;
                }
            });
        } finally {
            registry.stop();
        }
    }

    @Test
    void aFinalizerIsAddedBeforeTheFirstReconcileAndRemovedOnceItsCleanupSucceeds() throws Exception {
        CustomResources gadgets = new CustomResources(server().apiClient(), "gadgets", "Gadget");
        gadgets.define();
        Reconciler<DynamicKubernetesObject> loop = null;
        try {
            String finalizer = "conformance.watchkeeper.dev/cleanup";
            Watcher<DynamicKubernetesObject> watcher = start(gadgets.type(), new RequestLog(), new EventRecorder<>(),
                    WatchScope.namespace(namespace()), listWatch());
            RequestLog writes = new RequestLog();
            List<String> reconciled = new CopyOnWriteArrayList<>();
            List<ReconcileOutcome> cleanups = new CopyOnWriteArrayList<>();
            AtomicInteger cleanupCalls = new AtomicInteger();
            loop = Reconciler.<DynamicKubernetesObject>builder("gadgets", watcher, (gadget, context) -> {
                        reconciled.add(String.valueOf(gadget.getMetadata().getFinalizers()));
                        return ReconcileResult.done();
                    })
                    .finalizer(new Finalizer<>(finalizer, (gadget, context) -> {
                        if (cleanupCalls.incrementAndGet() == 1) {
                            throw new IllegalStateException("the first cleanup fails");
                        }
                    }))
                    .apiClient(writes.attachTo(server().apiClient()))
                    .listener(outcome -> {
                        if (outcome.cleanup()) {
                            cleanups.add(outcome);
                        }
                    })
                    .build();
            loop.start();
            DynamicKubernetesApi api = gadgets.api();
            api.create(gadgets.object(namespace(), "g1", Map.of("size", 1))).throwsApiException();

            await().atMost(WAIT).until(() -> !reconciled.isEmpty());
            assertThat(reconciled.get(0)).as("the first reconcile sees the finalizer").isEqualTo("[" + finalizer + "]");
            assertThat(api.get(namespace(), "g1").throwsApiException().getObject().getMetadata().getFinalizers())
                    .containsExactly(finalizer);

            api.delete(namespace(), "g1").throwsApiException();
            await().atMost(WAIT).until(() -> api.get(namespace(), "g1").getHttpStatusCode() == 404);

            assertThat(cleanups).extracting(o -> o.attempt() + " " + o.kind())
                    .as("a failed cleanup is retried with the object's backoff").containsExactly("1 ERROR", "2 DONE");
            assertThat(writes.withMethod("PATCH")).as("the finalizer added once and removed once").hasSize(2)
                    .allSatisfy(patch -> assertThat(patch.body().contentType().toString())
                            .startsWith("application/json-patch+json"));
            assertThat(bodyOf(writes.withMethod("PATCH").get(0))).contains("\"op\":\"test\"",
                    "\"path\":\"/metadata/resourceVersion\"", "\"op\":\"add\"");
            assertThat(bodyOf(writes.withMethod("PATCH").get(1))).contains("\"op\":\"test\"",
                    "\"path\":\"/metadata/finalizers/0\"", "\"op\":\"remove\"");
            assertThat(loop.counts().cleanups()).isEqualTo(1);
        } finally {
            if (loop != null) {
                loop.close(Duration.ofSeconds(5));
            }
            gadgets.undefine();
        }
    }

    /**
     * A reconciled custom resource reports its outcome in kstatus' conditions at the generation reconciled, which
     * {@code kubectl wait --for=condition=…} reads: Ready after a success; Stalled, and Ready False, after a terminal
     * error of the next generation.
     */
    @Test
    void aReconciledCustomResourceBecomesReadyForKubectlWaitAndStalledOnATerminalError() throws Exception {
        CustomResources doodads = new CustomResources(server().apiClient(), "doodads", "Doodad");
        doodads.define();
        WatchkeeperRegistry registry = new WatchkeeperRegistry(RegistryServices.of(server().apiClient()));
        try {
            registry.registerReconciler(new ReconcilerDeclaration<>("doodads",
                    WatcherSpec.of(doodads.type()), List.of(), (doodad, context) -> {
                        if (doodad.getRaw().getAsJsonObject("spec").get("size").getAsInt() < 0) {
                            throw new TerminalReconcileException("spec.size must not be negative");
                        }
                        return ReconcileResult.done();
                    }, 1, Set.of(Trigger.ALL), null, "test", null, List.of(namespace()), null));
            registry.start();
            DynamicKubernetesApi api = doodads.api();
            api.create(doodads.object(namespace(), "d1", Map.of("size", 1))).throwsApiException();
            Kubectl kubectl = new Kubectl(server().kubectl());
            String resource = "doodads." + CustomResources.GROUP + "/d1";

            assertThat(kubectl.run("wait", "--for=condition=Ready", resource, "-n", namespace(), "--timeout=60s"))
                    .contains("condition met");
            JsonObject ready = api.get(namespace(), "d1").throwsApiException().getObject().getRaw();
            assertThat(ready.getAsJsonObject("status").get("observedGeneration").getAsLong()).isEqualTo(1);
            assertThat(condition(ready, "Ready").get("observedGeneration").getAsLong()).isEqualTo(1);
            assertThat(condition(ready, "Ready").get("reason").getAsString()).isEqualTo("Succeeded");

            DynamicKubernetesObject bad = api.get(namespace(), "d1").throwsApiException().getObject();
            bad.getRaw().add("spec", doodads.json(Map.of("size", -1)));
            api.update(bad).throwsApiException();
            assertThat(kubectl.run("wait", "--for=condition=Stalled", resource, "-n", namespace(), "--timeout=60s"))
                    .contains("condition met");
            kubectl.run("wait", "--for=condition=Ready=false", resource, "-n", namespace(), "--timeout=60s");
            JsonObject stalled = api.get(namespace(), "d1").throwsApiException().getObject().getRaw();
            assertThat(stalled.getAsJsonObject("status").get("observedGeneration").getAsLong()).isEqualTo(2);
            assertThat(condition(stalled, "Stalled").get("message").getAsString())
                    .isEqualTo("spec.size must not be negative");
            assertThat(condition(stalled, "Ready").get("observedGeneration").getAsLong()).isEqualTo(2);
        } finally {
            registry.stop();
            doodads.undefine();
        }
    }

    private static JsonObject condition(JsonObject object, String type) {
        for (var condition : object.getAsJsonObject("status").getAsJsonArray("conditions")) {
            if (condition.getAsJsonObject().get("type").getAsString().equals(type)) {
                return condition.getAsJsonObject();
            }
        }
        throw new AssertionError("no condition " + type + " in " + object.get("status"));
    }

    @Test
    void aFinalizerPatchTestingAStaleResourceVersionIsRefusedWith422() throws Exception {
        CoreV1Api core = new CoreV1Api(server().apiClient());
        V1ConfigMap created = core.createNamespacedConfigMap(namespace(), new V1ConfigMap()
                .metadata(new V1ObjectMeta().namespace(namespace()).name("stale-finalizer"))).execute();
        V1ConfigMap changed = core.replaceNamespacedConfigMap("stale-finalizer", namespace(),
                created.data(Map.of("changed", "yes"))).execute();
        String patch = "[{\"op\":\"test\",\"path\":\"/metadata/resourceVersion\",\"value\":\""
                + created.getMetadata().getResourceVersion() + "\"},"
                + "{\"op\":\"add\",\"path\":\"/metadata/finalizers\",\"value\":[\"conformance.watchkeeper.dev/x\"]}]";
        assertThat(changed.getMetadata().getResourceVersion()).isNotEqualTo(created.getMetadata().getResourceVersion());

        assertThatThrownBy(() -> PatchUtils.patch(V1ConfigMap.class, () -> core.patchNamespacedConfigMap(
                        "stale-finalizer", namespace(), new V1Patch(patch)).buildCall(null),
                V1Patch.PATCH_FORMAT_JSON_PATCH, server().apiClient()))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.getCode()).isEqualTo(422));
        assertThat(core.readNamespacedConfigMap("stale-finalizer", namespace()).execute().getMetadata()
                .getFinalizers()).isNullOrEmpty();
    }

    @Test
    void aMetadataOnlyWatcherGetsAndCachesPartialObjectMetadataFromListAndWatch() throws Exception {
        CoreV1Api core = new CoreV1Api(server().apiClient());
        core.createNamespacedConfigMap(namespace(), configMap("meta-a", "metadata-only")).execute();
        RequestLog log = new RequestLog();
        EventRecorder<PartialObjectMetadata> recorder = new EventRecorder<>();
        Watcher<PartialObjectMetadata> watcher = start(ResourceType.of(V1ConfigMap.class).metadataOnly(), log,
                recorder, scope().withLabelSelector("scenario=metadata-only"), listWatch());
        recorder.awaitEvent("InitDone", WAIT);
        core.createNamespacedConfigMap(namespace(), configMap("meta-b", "metadata-only")).execute();
        recorder.awaitEvent("Apply(meta-b)", WAIT);

        assertThat(watcher.name()).isEqualTo("configmaps-metadata@" + namespace() + "-"
                + Integer.toHexString(("scenario=metadata-only|").hashCode() & 0xfffff));
        assertThat(watcher.store().list()).extracting(object -> object.getMetadata().getName())
                .containsExactly("meta-a", "meta-b");
        assertThat(watcher.store().list()).allSatisfy(object -> { // meta-a from the list, meta-b from the watch
            assertThat(object.getKind()).isEqualTo("PartialObjectMetadata");
            assertThat(object.getApiVersion()).isEqualTo("meta.k8s.io/v1");
            assertThat(object.getMetadata().getLabels()).containsEntry("scenario", "metadata-only");
            assertThat(object.getMetadata().getUid()).isNotBlank();
        });
        List<okhttp3.Request> gets = log.withMethod("GET").stream()
                .filter(request -> request.url().encodedPath().endsWith("/configmaps")).toList();
        assertThat(gets.get(0).url().queryParameter("watch")).isNull();
        assertThat(gets.get(0).header("Accept"))
                .isEqualTo("application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1");
        assertThat(gets.get(1).url().queryParameter("watch")).isEqualTo("true");
        assertThat(gets.get(1).header("Accept"))
                .isEqualTo("application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1");

        okhttp3.Request list = server().apiClient().buildRequest(server().apiClient().getBasePath(),
                "/api/v1/namespaces/" + namespace() + "/configmaps",
                "GET", List.of(new io.kubernetes.client.openapi.Pair("labelSelector", "scenario=metadata-only")),
                List.of(), null, new java.util.HashMap<>(Map.of("Accept",
                        "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1")),
                new java.util.HashMap<>(), new java.util.HashMap<>(), new String[] {"BearerToken"}, null);
        try (okhttp3.Response response = server().apiClient().getHttpClient().newCall(list).execute()) {
            JsonObject body = com.google.gson.JsonParser.parseString(response.body().string()).getAsJsonObject();
            assertThat(body.get("kind").getAsString()).isEqualTo("PartialObjectMetadataList");
            assertThat(body.get("apiVersion").getAsString()).isEqualTo("meta.k8s.io/v1");
            assertThat(body.getAsJsonObject("metadata").get("resourceVersion").getAsString()).isNotBlank();
            assertThat(body.getAsJsonArray("items")).hasSize(2).allSatisfy(item -> {
                assertThat(item.getAsJsonObject().keySet()).containsExactlyInAnyOrder("kind", "apiVersion",
                        "metadata");
                assertThat(item.getAsJsonObject().get("kind").getAsString()).isEqualTo("PartialObjectMetadata");
            });
        }
    }

    // ---------------------------------------------------------------- 9. the client's informer and kubectl

    @Test
    void clientJavaInformerSeesAddUpdateAndDelete() throws Exception {
        ApiClient client = server().apiClient();
        CoreV1Api core = new CoreV1Api(client);
        core.createNamespacedConfigMap(namespace(), configMap("informer-seed", "informer")).execute();
        SharedInformerFactory factory = new SharedInformerFactory(client);
        SharedIndexInformer<V1ConfigMap> informer = factory.sharedIndexInformerFor(new GenericKubernetesApi<>(
                V1ConfigMap.class, V1ConfigMapList.class, "", "v1", "configmaps", client), V1ConfigMap.class, 0L,
                namespace());
        List<String> seen = new CopyOnWriteArrayList<>();
        informer.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(V1ConfigMap obj) {
                record("add:", obj);
            }

            @Override
            public void onUpdate(V1ConfigMap oldObj, V1ConfigMap newObj) {
                record("update:", newObj);
            }

            @Override
            public void onDelete(V1ConfigMap obj, boolean deletedFinalStateUnknown) {
                record("delete:", obj);
            }

            private void record(String what, V1ConfigMap obj) {
                if ("informer".equals(obj.getMetadata().getLabels().get("scenario"))) {
                    seen.add(what + obj.getMetadata().getName());
                }
            }
        });
        factory.startAllRegisteredInformers();
        try {
            await().atMost(WAIT).until(informer::hasSynced);
            assertThat(seen).containsExactly("add:informer-seed");
            core.createNamespacedConfigMap(namespace(), configMap("informer-x", "informer")).execute();
            V1ConfigMap x = core.readNamespacedConfigMap("informer-x", namespace()).execute();
            core.replaceNamespacedConfigMap("informer-x", namespace(), x.data(Map.of("v", "2"))).execute();
            core.deleteNamespacedConfigMap("informer-x", namespace()).execute();

            await().atMost(WAIT).until(() -> seen.size() == 4);
            assertThat(seen).containsExactly("add:informer-seed", "add:informer-x", "update:informer-x",
                    "delete:informer-x");
        } finally {
            factory.stopAllRegisteredInformers();
        }
    }

    @Test
    void kubectlCreatesGetsWatchesAndDeletes() throws Exception {
        Kubectl kubectl = new Kubectl(server().kubectl());
        String version = kubectl.run("version");
        assertThat(version).contains("Client Version: v1.37.2", "Server Version:");

        kubectl.apply(namespace(), """
                apiVersion: v1
                kind: ConfigMap
                metadata:
                  name: kubectl-x
                  labels:
                    scenario: kubectl
                data:
                  k: v1
                """);
        String json = kubectl.run("get", "configmap", "kubectl-x", "-n", namespace(), "-o", "jsonpath={.data.k}");
        assertThat(json).isEqualTo("v1");

        try (Kubectl.Background watch = kubectl.start("get", "configmap", "kubectl-x", "-n", namespace(), "-w",
                "-o", "jsonpath={.data.k}{\"\\n\"}")) {
            await().atMost(WAIT).until(() -> watch.output().contains("v1"));
            CoreV1Api core = new CoreV1Api(server().apiClient());
            V1ConfigMap x = core.readNamespacedConfigMap("kubectl-x", namespace()).execute();
            core.replaceNamespacedConfigMap("kubectl-x", namespace(), x.data(Map.of("k", "v2"))).execute();
            await().atMost(WAIT).until(() -> watch.output().lines().toList().contains("v2"));
        }
        assertThat(kubectl.run("delete", "configmap", "kubectl-x", "-n", namespace())).contains("deleted");
        assertThatThrownBy(() -> new CoreV1Api(server().apiClient()).readNamespacedConfigMap("kubectl-x", namespace())
                .execute()).isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.getCode()).isEqualTo(404));
    }

    // ---------------------------------------------------------------- 10. shard selectors

    @Test
    void disjointShardSelectorsSplitAListByTheUidHashAndEachListEchoesItsSelector() throws Exception {
        ApiClient client = server().withShardSelectors();
        List<V1ConfigMap> created = createConfigMaps(client,
                IntStream.range(0, 60).mapToObj(i -> configMap("shard-list-" + i, "shard-list")).toList());
        List<ShardRanges> shards = List.of(ShardRanges.of(HashRange.share(0, 4), HashRange.share(2, 4)),
                ShardRanges.of(HashRange.share(1, 4)), ShardRanges.of(HashRange.share(3, 4)));

        Map<String, Integer> shardOfUid = new LinkedHashMap<>();
        for (int shard = 0; shard < shards.size(); shard++) {
            RawApi.Answer answer = new RawApi(client).get(configMapsPath(), Map.of("labelSelector",
                    "scenario=shard-list", "shardSelector", shards.get(shard).selector()));

            assertThat(answer.code()).isEqualTo(200);
            assertThat(answer.body().getAsJsonObject("metadata").getAsJsonObject("shardInfo").get("selector")
                    .getAsString()).isEqualTo(shards.get(shard).selector());
            List<String> uids = uidsOf(answer.body());
            assertThat(uids).as("shard %d", shard).isNotEmpty();
            for (String uid : uids) {
                assertThat(shardOfUid.put(uid, shard)).as("%s listed again in shard %d", uid, shard).isNull();
            }
        }

        Map<String, Integer> expected = new LinkedHashMap<>();
        for (V1ConfigMap configMap : created) {
            String uid = configMap.getMetadata().getUid();
            expected.put(uid, IntStream.range(0, shards.size())
                    .filter(shard -> shards.get(shard).contains(UidHash.of(uid))).findFirst().orElseThrow());
        }
        assertThat(shardOfUid).isEqualTo(expected);
    }

    @Test
    void aShardSelectorIsEchoedInTheServersOwnFormAndAnEmptyOneIsIgnored() throws Exception {
        ApiClient client = server().withShardSelectors();
        createConfigMaps(client, List.of(configMap("shard-echo-a", "shard-echo"), configMap("shard-echo-b",
                "shard-echo")));
        RawApi api = new RawApi(client);

        RawApi.Answer loose = api.get(configMapsPath(), Map.of("labelSelector", "scenario=shard-echo",
                "shardSelector", " (shardRange( object.metadata.uid,\"0x0000000000000000\" , '0x10000000000000000'))"));
        RawApi.Answer empty = api.get(configMapsPath(), Map.of("labelSelector", "scenario=shard-echo",
                "shardSelector", ""));

        assertThat(loose.code()).isEqualTo(200);
        assertThat(loose.body().getAsJsonObject("metadata").getAsJsonObject("shardInfo").get("selector").getAsString())
                .isEqualTo(ShardRanges.all().selector());
        assertThat(uidsOf(loose.body())).hasSize(2);
        assertThat(empty.code()).isEqualTo(200);
        assertThat(empty.body().getAsJsonObject("metadata").has("shardInfo")).isFalse();
        assertThat(uidsOf(empty.body())).hasSize(2);
    }

    @Test
    void aWatchWithAShardSelectorDeliversOnlyTheEventsOfObjectsInItsRange() throws Exception {
        ApiClient client = server().withShardSelectors();
        CoreV1Api core = new CoreV1Api(client);
        ShardRanges lowerHalf = ShardRanges.of(HashRange.share(0, 2));
        String version = core.listNamespacedConfigMap(namespace()).labelSelector("scenario=shard-watch").execute()
                .getMetadata().getResourceVersion();
        try (RawApi.Events events = new RawApi(client).watch(configMapsPath(), Map.of("labelSelector",
                "scenario=shard-watch", "shardSelector", lowerHalf.selector(), "resourceVersion", version,
                "timeoutSeconds", "120"))) {
            assertThat(events.code()).isEqualTo(200);
            List<V1ConfigMap> created = createConfigMaps(client,
                    IntStream.range(0, 20).mapToObj(i -> configMap("shard-watch-" + i, "shard-watch")).toList());
            List<String> expected = new ArrayList<>();
            for (V1ConfigMap configMap : created) {
                core.deleteNamespacedConfigMap(configMap.getMetadata().getName(), namespace()).execute();
            }
            // Objects are created until one falls in the range; its ADDED, last in the stream, closes what we read.
            String last = null;
            for (int i = 0; last == null; i++) {
                V1ConfigMap sentinel = core.createNamespacedConfigMap(namespace(),
                        configMap("shard-watch-last-" + i, "shard-watch")).execute();
                if (lowerHalf.contains(UidHash.of(sentinel.getMetadata().getUid()))) {
                    last = sentinel.getMetadata().getName();
                }
            }
            List<String> inRange = created.stream().filter(c -> lowerHalf.contains(UidHash.of(c.getMetadata().getUid())))
                    .map(c -> c.getMetadata().getName()).toList();
            inRange.forEach(name -> expected.add("ADDED " + name));
            inRange.forEach(name -> expected.add("DELETED " + name));
            expected.add("ADDED " + last);

            List<String> seen = new ArrayList<>();
            while (!seen.contains("ADDED " + last)) {
                JsonObject event = events.next();
                assertThat(event).as("the watch ended after %s", seen).isNotNull();
                JsonObject metadata = event.getAsJsonObject("object").getAsJsonObject("metadata");
                assertThat(lowerHalf.contains(UidHash.of(metadata.get("uid").getAsString()))).isTrue();
                seen.add(event.get("type").getAsString() + " " + metadata.get("name").getAsString());
            }
            assertThat(inRange).isNotEmpty();
            assertThat(seen).containsExactlyInAnyOrderElementsOf(expected);
        }
    }

    @Test
    void aMalformedShardSelectorFailsListAndWatchWithA500NamingTheProblem() throws Exception {
        RawApi api = new RawApi(server().withShardSelectors());
        String low = "'0x0000000000000000'";
        String high = "'0x8000000000000000'";
        Map<String, String> messages = new LinkedHashMap<>();
        messages.put("  ", "empty shard selector is not allowed; omit the parameter for unfiltered lists");
        messages.put("shardRange(object.metadata.uid, '0x0', " + high + ")", "hexStart must be a 0x-prefixed "
                + "16-digit hex value, got \"0x0\" (did you mean \"0x0000000000000000\"?)");
        messages.put("shardRange(object.metadata.uid, " + low + ", '0x800000000000000A')",
                "hexEnd: invalid hex character \"A\" in \"0x800000000000000A\"");
        messages.put("shardRange(object.metadata.uid, " + high + ", " + low + ")",
                "shard range start 0x8000000000000000 must be less than end 0x0000000000000000");
        messages.put("shardRange(metadata.uid, " + low + ", " + high + ")", "unsupported field path "
                + "\"metadata.uid\"; supported: object.metadata.uid, object.metadata.namespace");
        messages.put("shardRange(object.metadata.uid, " + low + ", " + high + ") || shardRange("
                + "object.metadata.namespace, " + low + ", " + high + ")", "all shard ranges must use the same field, "
                + "got \"object.metadata.uid\" and \"object.metadata.namespace\"");
        messages.put("shardRange(object.metadata.uid, " + low + ")", "shardRange() requires exactly 3 arguments, got 2");
        messages.put("shardRange(object.metadata.uid, " + low + ", " + high + ") && shardRange(object.metadata.uid, "
                + low + ")", "unsupported function \"_&&_\"; only shardRange() and || are allowed");
        messages.put("hashRange(object.metadata.uid, " + low + ", " + high + ")",
                "unsupported function \"hashRange\"; only shardRange() and || are allowed");
        messages.put("shardRange(object.metadata.uid, 0, " + high + ")", "hexStart must be a string literal, got int64");

        for (Map.Entry<String, String> malformed : messages.entrySet()) {
            for (Map<String, String> watch : List.of(Map.<String, String>of(),
                    Map.of("watch", "true", "timeoutSeconds", "5"))) {
                Map<String, String> query = new java.util.HashMap<>(watch);
                query.put("shardSelector", malformed.getKey());
                RawApi.Answer answer = api.get(configMapsPath(), query);

                assertThat(answer.code()).as(malformed.getKey()).isEqualTo(500);
                assertThat(answer.body().get("code").getAsInt()).isEqualTo(500);
                assertThat(answer.body().has("reason")).as(malformed.getKey()).isFalse();
                assertThat(answer.body().get("message").getAsString()).as(malformed.getKey())
                        .isEqualTo("invalid shard selector: " + malformed.getValue());
            }
        }
        RawApi.Answer syntax = api.get(configMapsPath(), Map.of("shardSelector", "shardRange("));
        assertThat(syntax.code()).isEqualTo(500);
        assertThat(syntax.body().get("message").getAsString())
                .startsWith("invalid shard selector: CEL parse error: Syntax error: ");
    }

    @Test
    void withTheGateOffAShardSelectorIsIgnoredEvenWhenMalformed() throws Exception {
        ApiClient client = server().withoutShardSelectors();
        createConfigMaps(client, IntStream.range(0, 6).mapToObj(i -> configMap("shard-off-" + i, "shard-off"))
                .toList());
        RawApi api = new RawApi(client);

        for (String selector : List.of(ShardRanges.of(HashRange.share(0, 2)).selector(), "shardRange(")) {
            RawApi.Answer answer = api.get(configMapsPath(), Map.of("labelSelector", "scenario=shard-off",
                    "shardSelector", selector));

            assertThat(answer.code()).as(selector).isEqualTo(200);
            assertThat(answer.body().getAsJsonObject("metadata").has("shardInfo")).isFalse();
            assertThat(uidsOf(answer.body())).hasSize(6);
        }
    }

    // ---------------------------------------------------------------- helpers

    String namespace() {
        return server().namespace();
    }

    WatchScope scope() {
        return WatchScope.namespace(namespace());
    }

    static WatchOptions listWatch() {
        return WatchOptions.defaults().withInitialList(InitialListStrategy.LIST_WATCH)
                .withListSemantics(ListSemantics.CONSISTENT);
    }

    static WatchOptions cached() {
        return WatchOptions.defaults().withInitialList(InitialListStrategy.LIST_WATCH)
                .withListSemantics(ListSemantics.CACHED);
    }

    <T extends KubernetesObject> Watcher<T> start(ResourceType<T> type, RequestLog log, EventRecorder<T> recorder,
                                                  WatchScope scope, WatchOptions options) {
        return start(server().apiClient(), type, log, recorder, scope, options);
    }

    <T extends KubernetesObject> Watcher<T> start(ApiClient client, ResourceType<T> type, RequestLog log,
                                                  EventRecorder<T> recorder, WatchScope scope, WatchOptions options) {
        Watcher<T> watcher = HttpWatchApi.watcher(log.attachTo(client), type)
                .scope(scope).options(options).backOff(QUICK).build();
        watchers.add(watcher);
        watcher.addListener(recorder);
        watcher.start();
        return watcher;
    }

    V1ConfigMap configMap(String name, String scenario) {
        return new V1ConfigMap().apiVersion("v1").kind("ConfigMap")
                .metadata(new V1ObjectMeta().namespace(namespace()).name(name).putLabelsItem("scenario", scenario))
                .data(Map.of("v", "1"));
    }

    V1PodTemplate podTemplate(String name) {
        return new V1PodTemplate().apiVersion("v1").kind("PodTemplate")
                .metadata(new V1ObjectMeta().namespace(namespace()).name(name))
                .template(new V1PodTemplateSpec().spec(new V1PodSpec().containers(
                        List.of(new V1Container().name("main").image("registry.invalid/none:1")))));
    }

    V1PodTemplate podTemplate(String name, String scenario) {
        V1PodTemplate template = podTemplate(name);
        template.getMetadata().putLabelsItem("scenario", scenario);
        return template;
    }

    /** Podtemplates of a scenario, which would otherwise show in the scenarios that watch every one. */
    private void deletePodTemplates(CoreV1Api core, String scenario) throws ApiException {
        core.deleteCollectionNamespacedPodTemplate(namespace()).labelSelector("scenario=" + scenario).execute();
    }

    void createConfigMaps(List<V1ConfigMap> configMaps) throws Exception {
        createConfigMaps(server().apiClient(), configMaps);
    }

    /** Creates the config maps, eight at a time; returns them as the server stored them, in the order given. */
    List<V1ConfigMap> createConfigMaps(ApiClient client, List<V1ConfigMap> configMaps) throws Exception {
        CoreV1Api core = new CoreV1Api(client);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<V1ConfigMap>> created = new ArrayList<>();
            for (V1ConfigMap configMap : configMaps) {
                created.add(pool.submit(() -> core.createNamespacedConfigMap(namespace(), configMap).execute()));
            }
            List<V1ConfigMap> stored = new ArrayList<>();
            for (Future<V1ConfigMap> future : created) {
                stored.add(future.get());
            }
            return stored;
        } finally {
            pool.shutdownNow();
        }
    }

    private String configMapsPath() {
        return "/api/v1/namespaces/" + namespace() + "/configmaps";
    }

    private static List<String> uidsOf(JsonObject list) {
        List<String> uids = new ArrayList<>();
        list.getAsJsonArray("items").forEach(item -> uids.add(item.getAsJsonObject().getAsJsonObject("metadata")
                .get("uid").getAsString()));
        return uids;
    }

    private void relabel(CoreV1Api core, String name, String tier) throws ApiException {
        V1ConfigMap configMap = core.readNamespacedConfigMap(name, namespace()).execute();
        configMap.getMetadata().putLabelsItem("tier", tier);
        core.replaceNamespacedConfigMap(name, namespace(), configMap).execute();
    }

    private V1ConfigMap apply(ApiClient client, String name, String manager, Map<String, String> data, boolean force)
            throws ApiException {
        String body = io.kubernetes.client.openapi.JSON.getGson().toJson(Map.of("apiVersion", "v1", "kind", "ConfigMap",
                "metadata", Map.of("name", name, "namespace", namespace()), "data", data));
        CoreV1Api core = new CoreV1Api(client);
        return PatchUtils.patch(V1ConfigMap.class, () -> core.patchNamespacedConfigMap(name, namespace(),
                        new V1Patch(body)).fieldManager(manager).force(force).buildCall(null),
                V1Patch.PATCH_FORMAT_APPLY_YAML, client);
    }

    private static String bodyOf(okhttp3.Request request) throws IOException {
        okio.Buffer buffer = new okio.Buffer();
        request.body().writeTo(buffer);
        return buffer.readUtf8();
    }

    private static List<String> namesAndVersions(List<? extends KubernetesObject> objects) {
        return objects.stream().map(o -> o.getMetadata().getName() + "@" + o.getMetadata().getResourceVersion())
                .toList();
    }
}
