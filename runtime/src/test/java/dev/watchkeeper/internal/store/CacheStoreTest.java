package dev.watchkeeper.internal.store;

import dev.watchkeeper.store.CachedObject;
import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ManagedFieldsEntry;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CacheStoreTest {

    @Test
    void aModelHandedInDecodedLosesItsManagedFieldsWhenTheStoreStripsThem() {
        CacheStore<V1ConfigMap> stripping = new CacheStore<>("stripping", true);
        CacheStore<V1ConfigMap> keeping = new CacheStore<>("keeping", false);

        stripping.apply(CachedObject.of(withManagedFields("a")));
        keeping.apply(CachedObject.of(withManagedFields("a")));

        assertThat(stripping.get("default", "a").orElseThrow().getMetadata().getManagedFields()).isNull();
        assertThat(keeping.get("default", "a").orElseThrow().getMetadata().getManagedFields()).hasSize(1);
    }

    @Test
    void aRelistSweepsWhatItDidNotApplyAndKeepsTheRest() {
        CacheStore<V1ConfigMap> store = new CacheStore<>("relist", true);
        store.startRelist();
        store.apply(CachedObject.of(withManagedFields("a")));
        store.apply(CachedObject.of(withManagedFields("b")));
        assertThat(store.finishRelist()).isEmpty();

        store.startRelist();
        store.apply(CachedObject.of(withManagedFields("b")));
        List<CachedObject<V1ConfigMap>> swept = store.finishRelist();

        assertThat(swept).extracting(object -> object.key().name()).containsExactly("a");
        assertThat(store.list()).extracting(c -> c.getMetadata().getName()).containsExactly("b");
        assertThat(store.ready()).isCompleted();
    }

    @Test
    void aListNamesAnObjectOnceWhileTheWriterDeletesItAndAppliesItAgain() throws InterruptedException {
        CacheStore<V1ConfigMap> store = new CacheStore<>("recreated", true);
        List<CachedObject<V1ConfigMap>> objects = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            V1ConfigMap model = withManagedFields(String.format("cm-%02d", i));
            model.getMetadata().putLabelsItem("app", "x");
            objects.add(CachedObject.of(model));
            store.apply(objects.get(i));
        }
        List<List<String>> repeated = Recreations.repeatedAnswers(store, objects, 60_000, read -> switch (read % 3) {
            case 0 -> store.list().stream().map(cm -> cm.getMetadata().getName()).toList();
            case 1 -> store.list("app=x").stream().map(cm -> cm.getMetadata().getName()).toList();
            default -> store.cachedObjects().stream().map(object -> object.key().name()).toList();
        });

        assertThat(repeated).as("lists that named an object twice").isEmpty();
    }

    private static V1ConfigMap withManagedFields(String name) {
        return new V1ConfigMap().metadata(new V1ObjectMeta().namespace("default").name(name).resourceVersion("1")
                .uid("uid-" + name).addManagedFieldsItem(new V1ManagedFieldsEntry().manager("kubectl")));
    }
}
