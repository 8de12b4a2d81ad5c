package dev.watchkeeper.test.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.watchkeeper.internal.shard.Slots;
import dev.watchkeeper.internal.shard.UidHash;
import dev.watchkeeper.internal.watch.ShardFilter;
import dev.watchkeeper.internal.watch.Watcher;
import dev.watchkeeper.internal.watch.http.HttpWatchApi;
import dev.watchkeeper.internal.resource.ResourceType;
import dev.watchkeeper.test.EventRecorder;
import dev.watchkeeper.internal.watch.InitialListStrategy;
import dev.watchkeeper.internal.watch.WatchOptions;
import dev.watchkeeper.internal.watch.WatchScope;
import dev.watchkeeper.watch.WatcherSnapshot.Shard.Mode;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import okhttp3.HttpUrl;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A sharded watcher against a server that honours {@code shardSelector} and one that ignores it (one subclass per
 * kind of server): it holds the same objects either way — exactly those whose uid hashes into its slots — and says
 * who filtered. Each scenario keeps to its own {@code scenario} label.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ShardedWatcherScenarios {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final Slots X = Slots.of(IntStream.range(0, 64).toArray());
    private static final Slots Y = Slots.of(IntStream.range(32, 96).toArray());

    private final List<Watcher<?>> watchers = new ArrayList<>();

    /** The server of this run. */
    abstract ServerUnderTest server();

    @AfterEach
    void closeWatchers() {
        watchers.forEach(Watcher::close);
        watchers.clear();
    }

    @ParameterizedTest(name = "shard selectors honoured: {0}")
    @ValueSource(booleans = {true, false})
    void holdsExactlyTheObjectsOfItsSlotsAndAfterAReshardExactlyThoseOfTheNewOnes(boolean honoured) throws Exception {
        ApiClient client = client(honoured);
        String scenario = "sharded-watch-" + honoured;
        create(client, IntStream.range(0, 60).mapToObj(i -> configMap(scenario + "-" + i, scenario, null)).toList());
        RequestLog log = new RequestLog();
        EventRecorder<V1ConfigMap> recorder = new EventRecorder<>();
        Watcher<V1ConfigMap> watcher = start(client(honoured), log, recorder, scenario, ShardFilter.BY_OBJECT_UID,
                InitialListStrategy.LIST_WATCH);

        watcher.reshard(X);
        recorder.awaitEvent("InitDone", WAIT);
        assertThat(held(watcher)).isEqualTo(onServer(client, scenario, X));
        assertThat(watcher.snapshot().shard().mode()).isEqualTo(honoured ? Mode.SERVER : Mode.CLIENT);
        await().atMost(WAIT).until(() -> log.watches("configmaps").size() == 1);
        Map<String, String> before = held(watcher);
        recorder.clear();

        watcher.reshard(Y);
        await().atMost(WAIT).until(() -> recorder.events().contains("InitDone"));

        Map<String, String> inY = onServer(client, scenario, Y);
        assertThat(held(watcher)).isEqualTo(inY);
        assertThat(watcher.store().size()).as("a kept object is replaced, not doubled").isEqualTo(inY.size());
        TreeSet<String> swept = new TreeSet<>(before.keySet());
        swept.removeAll(inY.keySet());
        assertThat(swept).isNotEmpty();
        List<String> delivered = recorder.events();
        assertThat(delivered).startsWith("Init").endsWith("InitDone")
                .containsAll(swept.stream().map(name -> "Delete(" + name + ", final state unknown)").toList())
                .containsAll(inY.keySet().stream().map(name -> "InitApply(" + name + ")").toList())
                .hasSize(inY.size() + swept.size() + 2);
        assertThat(watcher.snapshot().shard().slots()).isEqualTo("[32-95]");
        assertThat(watcher.snapshot().shard().mode()).isEqualTo(honoured ? Mode.SERVER : Mode.CLIENT);
        assertThat(watcher.snapshot().counts().errors()).as("a reshard is no failure").isZero();
        await().atMost(WAIT).until(() -> log.watches("configmaps").size() == 2);
        List<HttpUrl> requests = new ArrayList<>(log.lists("configmaps"));
        requests.addAll(log.watches("configmaps"));
        assertThat(requests).extracting(url -> url.queryParameter("shardSelector")).containsExactly(
                selector(X), selector(Y), selector(X), selector(Y));
    }

    @ParameterizedTest(name = "shard selectors honoured: {0}")
    @ValueSource(booleans = {true, false})
    void aStreamingListHoldsTheSameObjectsAndAOneObjectListSaysWhoFiltered(boolean honoured) throws Exception {
        ApiClient client = client(honoured);
        String scenario = "sharded-stream-" + honoured;
        create(client, IntStream.range(0, 60).mapToObj(i -> configMap(scenario + "-" + i, scenario, null)).toList());
        EventRecorder<V1ConfigMap> recorder = new EventRecorder<>();
        Watcher<V1ConfigMap> watcher = start(client(honoured), new RequestLog(), recorder, scenario,
                ShardFilter.BY_OBJECT_UID, InitialListStrategy.STREAMING);

        watcher.reshard(X);
        recorder.awaitEvent("InitDone", WAIT);

        assertThat(held(watcher)).isEqualTo(onServer(client, scenario, X));
        // The end-of-initial-events bookmark carries no shardInfo: the one-object list with the selector before the
        // stream says whether the server filters.
        assertThat(watcher.snapshot().shard().mode()).isEqualTo(honoured ? Mode.SERVER : Mode.CLIENT);
        // not honoured: at least this scenario's objects outside the share (the namespace holds other scenarios' too)
        assertThat(watcher.snapshot().shard().clientFiltered()).as("objects the server sent outside the share")
                .isBetween(honoured ? 0 : 60L - held(watcher).size(), honoured ? 0 : Long.MAX_VALUE);
    }

    @Test
    void byControllerOwnerHoldsTheOwnedObjectsWhoseControllerIsInItsSlots() throws Exception {
        ApiClient client = server().withoutShardSelectors();
        String scenario = "sharded-owned";
        List<V1ConfigMap> owners = create(client, IntStream.range(0, 24)
                .mapToObj(i -> configMap(scenario + "-owner-" + i, scenario + "-owner", null)).toList());
        List<V1ConfigMap> owned = new ArrayList<>();
        for (V1ConfigMap owner : owners) {
            owned.add(configMap(owner.getMetadata().getName() + "-owned", scenario, owner(owner, true)));
        }
        owned.add(configMap(scenario + "-not-controlled", scenario, owner(owners.get(0), false)));
        owned.add(configMap(scenario + "-orphan", scenario, null));
        create(client, owned);
        EventRecorder<V1ConfigMap> recorder = new EventRecorder<>();
        Watcher<V1ConfigMap> watcher = start(client(false), new RequestLog(), recorder, scenario,
                ShardFilter.BY_CONTROLLER_OWNER_UID, InitialListStrategy.LIST_WATCH);

        watcher.reshard(X);
        recorder.awaitEvent("InitDone", WAIT);

        TreeSet<String> expected = owners.stream().filter(o -> X.contains(UidHash.of(o.getMetadata().getUid())))
                .map(o -> o.getMetadata().getName() + "-owned").collect(Collectors.toCollection(TreeSet::new));
        assertThat(expected).isNotEmpty().hasSizeLessThan(owners.size());
        assertThat(held(watcher).keySet()).isEqualTo(expected);
        assertThat(watcher.snapshot().shard().mode()).isEqualTo(Mode.CLIENT);
    }

    /** A new client (so a request log on one sees only the watcher's requests) of the server with or without the gate. */
    private ApiClient client(boolean shardSelectorsHonoured) {
        return shardSelectorsHonoured ? server().withShardSelectors() : server().withoutShardSelectors();
    }

    private Watcher<V1ConfigMap> start(ApiClient client, RequestLog log, EventRecorder<V1ConfigMap> recorder,
            String scenario, ShardFilter filter, InitialListStrategy initialList) {
        Watcher<V1ConfigMap> watcher = HttpWatchApi.watcher(log.attachTo(client), ResourceType.of(V1ConfigMap.class))
                .scope(WatchScope.namespace(server().namespace()).withLabelSelector("scenario=" + scenario))
                .options(WatchOptions.defaults().withInitialList(initialList)).backOff(ConformanceScenarios.QUICK)
                .shardFilter(filter).build();
        watchers.add(watcher);
        watcher.addListener(recorder);
        watcher.start();
        return watcher;
    }

    /** name → resourceVersion of what the watcher holds. */
    private static Map<String, String> held(Watcher<V1ConfigMap> watcher) {
        return versions(watcher.store().list());
    }

    /** name → resourceVersion of the scenario's objects on the server whose uid hashes into {@code slots}. */
    private Map<String, String> onServer(ApiClient client, String scenario, Slots slots) throws Exception {
        List<V1ConfigMap> all = new CoreV1Api(client).listNamespacedConfigMap(server().namespace())
                .labelSelector("scenario=" + scenario).execute().getItems();
        return versions(all.stream().filter(c -> slots.contains(UidHash.of(c.getMetadata().getUid()))).toList());
    }

    private static Map<String, String> versions(List<V1ConfigMap> objects) {
        return objects.stream().map(V1ConfigMap::getMetadata).collect(Collectors.toMap(V1ObjectMeta::getName,
                V1ObjectMeta::getResourceVersion, (a, b) -> a, TreeMap::new));
    }

    private static String selector(Slots slots) {
        return slots.ranges().orElseThrow().selector();
    }

    private List<V1ConfigMap> create(ApiClient client, List<V1ConfigMap> configMaps) throws Exception {
        CoreV1Api core = new CoreV1Api(client);
        List<V1ConfigMap> created = new ArrayList<>();
        for (V1ConfigMap configMap : configMaps) {
            created.add(core.createNamespacedConfigMap(server().namespace(), configMap).execute());
        }
        return created;
    }

    private V1ConfigMap configMap(String name, String scenario, V1OwnerReference owner) {
        return new V1ConfigMap().apiVersion("v1").kind("ConfigMap")
                .metadata(new V1ObjectMeta().namespace(server().namespace()).name(name)
                        .putLabelsItem("scenario", scenario).ownerReferences(owner == null ? null : List.of(owner)))
                .data(Map.of("v", "1"));
    }

    private static V1OwnerReference owner(V1ConfigMap owner, boolean controller) {
        return new V1OwnerReference().apiVersion("v1").kind("ConfigMap").name(owner.getMetadata().getName())
                .uid(owner.getMetadata().getUid()).controller(controller);
    }
}
