package dev.watchkeeper.test.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.watchkeeper.internal.shard.HashRange;
import dev.watchkeeper.internal.shard.ShardField;
import dev.watchkeeper.internal.shard.ShardRanges;
import dev.watchkeeper.internal.shard.ShardSelector;
import dev.watchkeeper.internal.shard.UidHash;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What the conformance scenarios leave out of the shard filter: the namespace field, cluster-scoped objects and
 * paged lists. The behaviour follows kube-apiserver 1.37's source (storage predicate and list handling).
 */
class ShardSelectorsOverHttpTest {

    private final InMemoryApiServer server = InMemoryApiServer.builder().build().start();
    private final RawHttp http = new RawHttp(server);

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void aNamespaceShardKeepsEachNamespaceWholeAndClusterScopedObjectsHashTheEmptyNamespace() {
        List<String> namespaces = IntStream.range(0, 12).mapToObj(i -> "team-" + i).toList();
        for (String namespace : namespaces) {
            server.create(new V1Namespace().metadata(new V1ObjectMeta().name(namespace)));
            for (String name : List.of("a", "b")) {
                server.create(new V1ConfigMap().metadata(new V1ObjectMeta().name(name).namespace(namespace)));
            }
        }
        List<String> seen = new ArrayList<>();
        for (int share = 0; share < 2; share++) {
            ShardSelector selector = new ShardSelector(ShardField.NAMESPACE,
                    ShardRanges.of(HashRange.share(share, 2)));

            JsonObject list = list("/api/v1/configmaps", selector.toString(), "");

            assertThat(list.getAsJsonObject("metadata").getAsJsonObject("shardInfo").get("selector").getAsString())
                    .isEqualTo(selector.toString());
            for (JsonElement item : list.getAsJsonArray("items")) {
                String namespace = item.getAsJsonObject().getAsJsonObject("metadata").get("namespace").getAsString();
                assertThat(selector.matches(namespace)).as(namespace).isTrue();
                seen.add(namespace);
            }
        }
        assertThat(seen).containsExactlyInAnyOrderElementsOf(
                namespaces.stream().flatMap(namespace -> List.of(namespace, namespace).stream()).toList());

        // A namespace object has no namespace: "" hashes to 0xcbf29ce484222325, in the upper half.
        String lower = new ShardSelector(ShardField.NAMESPACE, ShardRanges.of(HashRange.share(0, 2))).toString();
        String upper = new ShardSelector(ShardField.NAMESPACE, ShardRanges.of(HashRange.share(1, 2))).toString();
        assertThat(list("/api/v1/namespaces", lower, "").getAsJsonArray("items")).isEmpty();
        assertThat(list("/api/v1/namespaces", upper, "").getAsJsonArray("items").size())
                .isGreaterThanOrEqualTo(namespaces.size());
    }

    @Test
    void pagesOfAShardCarryItsSelectorAndNoRemainingCount() {
        List<String> uids = IntStream.range(0, 30).mapToObj(i -> server.create(new V1ConfigMap().metadata(
                new V1ObjectMeta().name("cm-" + i).namespace("default"))).getMetadata().getUid()).toList();
        ShardRanges lowerHalf = ShardRanges.of(HashRange.share(0, 2));

        List<String> paged = new ArrayList<>();
        String next = "";
        do {
            JsonObject page = list("/api/v1/namespaces/default/configmaps", lowerHalf.selector(),
                    "&limit=3" + (next.isEmpty() ? "" : "&continue=" + next));
            JsonObject metadata = page.getAsJsonObject("metadata");
            assertThat(metadata.getAsJsonObject("shardInfo").get("selector").getAsString())
                    .isEqualTo(lowerHalf.selector());
            assertThat(metadata.has("remainingItemCount")).isFalse();
            page.getAsJsonArray("items").forEach(item -> paged.add(
                    item.getAsJsonObject().getAsJsonObject("metadata").get("uid").getAsString()));
            next = metadata.has("continue") ? metadata.get("continue").getAsString() : "";
        } while (!next.isEmpty());

        assertThat(paged).containsExactlyInAnyOrderElementsOf(
                uids.stream().filter(uid -> lowerHalf.contains(UidHash.of(uid))).toList()).isNotEmpty();
    }

    private JsonObject list(String path, String selector, String more) {
        var response = http.get(path + "?shardSelector=" + URLEncoder.encode(selector, StandardCharsets.UTF_8)
                + more);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return RawHttp.json(response);
    }
}
