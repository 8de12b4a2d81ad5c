package dev.watchkeeper.internal.store;

import dev.watchkeeper.store.CachedObject;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.watchkeeper.store.Indexer;
import dev.watchkeeper.store.ObjectKey;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** The store's indexes follow every write: apply, replace, delete and the relist's sweep. */
class CacheStoreIndexTest {

    private static final Function<V1ConfigMap, List<String>> BY_DATA_KEY = cm -> cm.getData() == null ? List.of()
            : List.copyOf(cm.getData().keySet());

    private final CacheStore<V1ConfigMap> store = new CacheStore<>("cms", true);

    @Test
    void anAppliedObjectIsFoundByNamespaceOwnerAndEachLabel() {
        store.apply(CachedObject.of(cm("a", "b", "owner-1", Map.of("app", "web", "tier", "front"))));
        store.apply(CachedObject.of(cm("a", "a", "owner-1", Map.of("app", "web"))));
        store.apply(CachedObject.of(cm("b", "c", null, Map.of("app", "web"))));

        assertThat(names(store.listInNamespace("a"))).containsExactly("a/a", "a/b");
        assertThat(names(store.listByOwner("owner-1"))).containsExactly("a/a", "a/b");
        assertThat(names(store.listByLabel("app", "web"))).containsExactly("a/a", "a/b", "b/c");
        assertThat(names(store.listByLabel("tier", "front"))).containsExactly("a/b");
        assertThat(store.listByLabel("tier", "back")).isEmpty();
        assertThat(store.listByOwner("owner-2")).isEmpty();
        assertThat(store.listInNamespace("c")).isEmpty();
    }

    @Test
    void aBuiltInIndexCostsNothingUntilItsFirstLookupAndIsMaintainedFromThen() {
        store.apply(CachedObject.of(cm("a", "x", "owner-1", Map.of("app", "web"))));
        assertThat(store.indexStats()).allSatisfy(index -> assertThat(index.estimatedBytes()).isZero());

        assertThat(names(store.listByLabel("app", "web"))).as("built over what the store holds").containsExactly("a/x");
        store.apply(CachedObject.of(cm("a", "y", "owner-1", Map.of("app", "web"))));
        store.delete(new ObjectKey("a", "x"));

        assertThat(names(store.listByLabel("app", "web"))).as("maintained since").containsExactly("a/y");
        assertThat(stat("label").estimatedBytes()).isPositive();
        assertThat(stat("owner").estimatedBytes()).as("never looked up").isZero();
        assertThat(stat("namespace").estimatedBytes()).isZero();
    }

    @Test
    void aReplacementMovesTheObjectBetweenLabelsAndOwners() {
        store.apply(CachedObject.of(cm("a", "x", "owner-1", Map.of("app", "web", "keep", "yes"))));

        store.apply(CachedObject.of(cm("a", "x", "owner-2", Map.of("app", "api", "keep", "yes"))));

        assertThat(store.listByLabel("app", "web")).isEmpty();
        assertThat(names(store.listByLabel("app", "api"))).containsExactly("a/x");
        assertThat(names(store.listByLabel("keep", "yes"))).containsExactly("a/x");
        assertThat(store.listByOwner("owner-1")).isEmpty();
        assertThat(names(store.listByOwner("owner-2"))).containsExactly("a/x");
        assertThat(store.listInNamespace("a")).hasSize(1);

        store.apply(CachedObject.of(cm("a", "x", null, Map.of())));

        assertThat(store.listByOwner("owner-2")).isEmpty();
        assertThat(store.listByLabel("keep", "yes")).isEmpty();
        assertThat(stat("owner").entries()).isZero();
        assertThat(stat("label").keys()).isZero();
        assertThat(stat("namespace").entries()).isEqualTo(1);
    }

    @Test
    void onlyTheControllerOwnerIsIndexed() {
        V1ConfigMap configMap = cm("a", "x", null, Map.of());
        configMap.getMetadata().addOwnerReferencesItem(new V1OwnerReference().uid("plain").controller(false))
                .addOwnerReferencesItem(new V1OwnerReference().uid("controller").controller(true));
        store.apply(CachedObject.of(configMap));

        assertThat(store.listByOwner("plain")).isEmpty();
        assertThat(names(store.listByOwner("controller"))).containsExactly("a/x");
    }

    @Test
    void aDeleteAndARelistSweepTakeTheObjectOutOfEveryIndex() {
        store.addIndex(new Indexer<>("data-key", BY_DATA_KEY));
        store.startRelist();
        for (String name : List.of("a", "b", "c")) {
            store.apply(CachedObject.of(cm("ns", name, "owner", Map.of("app", "web")).putDataItem("k", "v")));
        }
        store.finishRelist();

        store.delete(new ObjectKey("ns", "a"));
        store.startRelist();
        store.apply(CachedObject.of(cm("ns", "c", "owner", Map.of("app", "web")).putDataItem("k", "v")));
        List<CachedObject<V1ConfigMap>> swept = store.finishRelist();

        assertThat(swept).extracting(object -> object.key().name()).containsExactly("b");
        for (List<V1ConfigMap> found : List.of(store.listInNamespace("ns"), store.listByOwner("owner"),
                store.listByLabel("app", "web"), store.listByIndex("data-key", "k"))) {
            assertThat(names(found)).containsExactly("ns/c");
        }
        assertThat(store.indexStats()).extracting(IndexStats::name, IndexStats::keys, IndexStats::entries)
                .containsExactly(
                        tuple("namespace", 1, 1L),
                        tuple("owner", 1, 1L),
                        tuple("label", 1, 1L),
                        tuple("data-key", 1, 1L));
    }

    @Test
    void aCustomIndexAddedLateCoversWhatTheStoreHeldAndFollowsChanges() {
        store.apply(CachedObject.of(cm("ns", "a", null, Map.of()).putDataItem("x", "1").putDataItem("y", "2")));
        store.apply(CachedObject.of(cm("ns", "b", null, Map.of()).putDataItem("y", "3")));

        store.addIndex(new Indexer<>("data-key", BY_DATA_KEY));

        assertThat(names(store.listByIndex("data-key", "y"))).containsExactly("ns/a", "ns/b");
        store.apply(CachedObject.of(cm("ns", "a", null, Map.of()).putDataItem("x", "1")));
        assertThat(names(store.listByIndex("data-key", "y"))).containsExactly("ns/b");
        assertThat(names(store.listByIndex("data-key", "x"))).containsExactly("ns/a");
        assertThat(store.listByIndex("data-key", "z")).isEmpty();
    }

    @Test
    void indexNamesAreCheckedAndTheSameIndexTwiceIsKeptOnce() {
        Indexer<V1ConfigMap> byDataKey = new Indexer<>("data-key", BY_DATA_KEY);
        store.addIndex(byDataKey);
        store.addIndex(byDataKey);

        assertThat(store.indexStats()).hasSize(4);
        assertThatThrownBy(() -> store.addIndex(new Indexer<>("data-key", cm -> List.of())))
                .hasMessageContaining("two indexes named 'data-key'");
        assertThatThrownBy(() -> store.addIndex(new Indexer<>("owner", cm -> List.of())))
                .hasMessageContaining("'owner' is built in");
        assertThatThrownBy(() -> store.listByIndex("missing", "k"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no index named 'missing'").hasMessageContaining("[data-key]");
    }

    @Test
    void aFailingCustomIndexIsLoggedAndFilesTheObjectNowhere() {
        Logger storeLog = (Logger) LoggerFactory.getLogger(CacheStore.class);
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        logged.start();
        storeLog.addAppender(logged);
        try {
            store.addIndex(new Indexer<>("first-data", cm -> List.of(cm.getData().keySet().iterator().next())));
            store.apply(CachedObject.of(cm("ns", "no-data", null, Map.of())));
            store.apply(CachedObject.of(cm("ns", "data", null, Map.of()).putDataItem("k", "v")));

            assertThat(names(store.listByIndex("first-data", "k"))).containsExactly("ns/data");
            assertThat(logged.list).singleElement().satisfies(event -> assertThat(event.getFormattedMessage())
                    .isEqualTo("watcher cms: the index 'first-data' failed on CachedObject[ns/no-data at"
                            + " resourceVersion 1]; it files the object under no key"));
        } finally {
            storeLog.detachAppender(logged);
        }
    }

    @Test
    void lookupsDecodeOnlyTheObjectsTheyReturn() {
        List<CachedObject<V1ConfigMap>> all = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            String owner = i < 2 ? "generator" : "other-" + i;
            String app = i % 10 == 0 ? "picked" : "other";
            all.add(raw("ns", "cm-" + i, owner, Map.of("app", app)));
        }
        all.add(raw("elsewhere", "cm", "generator-elsewhere", Map.of()));
        all.forEach(store::apply);

        assertThat(names(store.listByOwner("generator"))).containsExactly("ns/cm-0", "ns/cm-1");
        assertThat(store.listByLabel("app", "picked")).hasSize(10);
        assertThat(store.listInNamespace("elsewhere")).hasSize(1);

        assertThat(all.stream().filter(CachedObject::isDecoded).map(object -> object.key().toString()))
                .containsExactlyInAnyOrder("ns/cm-0", "ns/cm-1", "ns/cm-10", "ns/cm-20", "ns/cm-30", "ns/cm-40",
                        "ns/cm-50", "ns/cm-60", "ns/cm-70", "ns/cm-80", "ns/cm-90", "elsewhere/cm");
    }

    @Test
    void aKeyWithManyObjectsAndOneWithFewGiveTheSameAnswersAsTheyGrowAndShrink() {
        for (int i = 0; i < 3 * Postings.SMALL; i++) {
            store.apply(CachedObject.of(cm("ns", String.format("cm-%02d", i), "owner", Map.of())));
            assertThat(store.listByOwner("owner")).hasSize(i + 1);
        }
        for (int i = 3 * Postings.SMALL - 1; i >= 0; i--) {
            store.delete(new ObjectKey("ns", String.format("cm-%02d", i)));
            assertThat(names(store.listByOwner("owner"))).hasSize(i)
                    .allSatisfy(name -> assertThat(name).startsWith("ns/cm-")).isSorted();
        }
        assertThat(stat("owner").keys()).isZero();
        assertThat(stat("owner").estimatedBytes()).isZero();
        assertThat(stat("namespace").estimatedBytes()).isZero();
    }

    @Test
    void aLookupNamesAnObjectOnceWhileTheWriterTakesItOutAndFilesItAgain() throws InterruptedException {
        // a set's iteration can pass an object and meet it again once the writer has filed it anew further on
        List<CachedObject<V1ConfigMap>> objects = new ArrayList<>();
        for (int i = 0; i < 4 * Postings.SMALL; i++) {
            objects.add(CachedObject.of(cm("ns", String.format("cm-%02d", i), "owner", Map.of())));
            store.apply(objects.get(i));
        }
        List<List<String>> repeated = Recreations.repeatedAnswers(store, objects, 200_000,
                read -> names(store.listInNamespace("ns")));

        assertThat(repeated).as("lookups that named an object twice").isEmpty();
    }

    private IndexStats stat(String name) {
        return store.indexStats().stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
    }

    static V1ConfigMap cm(String namespace, String name, String controllerUid, Map<String, String> labels) {
        V1ObjectMeta metadata = new V1ObjectMeta().namespace(namespace).name(name).resourceVersion("1")
                .uid("uid-" + name).labels(labels.isEmpty() ? null : labels);
        if (controllerUid != null) {
            metadata.addOwnerReferencesItem(new V1OwnerReference().apiVersion("v1").kind("Owner").name("owner")
                    .uid(controllerUid).controller(true));
        }
        return new V1ConfigMap().metadata(metadata);
    }

    /** An object kept as JSON, its model decoded only when read. */
    private static CachedObject<V1ConfigMap> raw(String namespace, String name, String controllerUid,
            Map<String, String> labels) {
        V1ConfigMap model = cm(namespace, name, controllerUid, labels);
        return new CachedObject<>(new ObjectKey(namespace, name), "uid-" + name, "1", 1L, labels,
                model.getMetadata().getOwnerReferences(), null, null,
                (namespace + "/" + name).getBytes(StandardCharsets.UTF_8), new CachedObject.Decoder<>() {
                    @Override
                    public V1ConfigMap decode(byte[] json) {
                        return model;
                    }

                    @Override
                    public String problem(byte[] json, Exception failure) {
                        return "never";
                    }
                });
    }

    private static List<String> names(List<V1ConfigMap> objects) {
        return objects.stream().map(o -> o.getMetadata().getNamespace() + "/" + o.getMetadata().getName()).toList();
    }
}
