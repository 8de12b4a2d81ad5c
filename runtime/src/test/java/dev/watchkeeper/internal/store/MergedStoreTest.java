package dev.watchkeeper.internal.store;

import dev.watchkeeper.store.CachedObject;
import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MergedStoreTest {

    private final CacheStore<V1ConfigMap> teamA = new CacheStore<>("test", true);
    private final CacheStore<V1ConfigMap> teamB = new CacheStore<>("test", true);
    private final MergedStore<V1ConfigMap> merged = new MergedStore<>(List.of(teamB, teamA));

    @Test
    void readsEveryStoreInKeyOrderAndIsReadyWhenAllAre() throws InterruptedException {
        sync(teamA, cm("team-a", "x", "app=web"), cm("team-a", "a", "app=db"));
        assertThat(merged.ready()).isNotDone();
        assertThat(merged.awaitReady(Duration.ofMillis(1))).isFalse();

        sync(teamB, cm("team-b", "y", "app=web"));

        assertThat(merged.awaitReady(Duration.ofSeconds(1))).isTrue();
        assertThat(merged.list()).extracting(MergedStoreTest::key).containsExactly("team-a/a", "team-a/x", "team-b/y");
        assertThat(merged.list("app=web")).extracting(MergedStoreTest::key).containsExactly("team-a/x", "team-b/y");
        assertThat(merged.listInNamespace("team-b")).extracting(MergedStoreTest::key).containsExactly("team-b/y");
        assertThat(merged.get("team-b", "y")).isPresent();
        assertThat(merged.get("team-b", "x")).isEmpty();
        assertThat(merged.size()).isEqualTo(3);
    }

    private static void sync(CacheStore<V1ConfigMap> store, V1ConfigMap... objects) {
        store.startRelist();
        for (V1ConfigMap object : objects) {
            store.apply(CachedObject.of(object));
        }
        store.finishRelist();
    }

    private static V1ConfigMap cm(String namespace, String name, String label) {
        String[] kv = label.split("=");
        return new V1ConfigMap().metadata(new V1ObjectMeta().namespace(namespace).name(name)
                .labels(Map.of(kv[0], kv[1])));
    }

    private static String key(V1ConfigMap object) {
        return object.getMetadata().getNamespace() + "/" + object.getMetadata().getName();
    }
}
