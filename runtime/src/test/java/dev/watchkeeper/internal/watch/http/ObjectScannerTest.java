package dev.watchkeeper.internal.watch.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.Gson;
import com.google.gson.JsonParser;
import dev.watchkeeper.internal.json.ModelGson;
import dev.watchkeeper.internal.json.ObjectDecoder;
import dev.watchkeeper.internal.watch.WireEvent;
import dev.watchkeeper.store.CachedObject;
import dev.watchkeeper.store.ObjectKey;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ObjectScannerTest {

    private static final Gson CLIENT = new JSON().getGson();
    private static final String MANAGED = "\"managedFields\":[{\"manager\":\"kubectl\",\"fieldsV1\":{\"f:data\":{}}}]";
    private static final String OBJECT = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\","
            + "\"namespace\":\"default\",\"uid\":\"u-1\",\"resourceVersion\":\"7\",\"generation\":3,"
            + "\"labels\":{\"app\":\"web\",\"tier\":\"front\"},\"annotations\":{\"note\":\"{\\\"x\\\":[1]}\"},"
            + "\"ownerReferences\":[{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"name\":\"d\",\"uid\":\"o-1\","
            + "\"controller\":true,\"blockOwnerDeletion\":false}],\"finalizers\":[\"example.com/cleanup\"],"
            + "\"deletionTimestamp\":\"2026-01-01T00:00:00Z\"},\"data\":{\"k\":\"v \\u00e9 \\\"q\\\"\"}}";

    private final Capturing decoder = new Capturing();
    private final ObjectScanner<V1ConfigMap> scanner = new ObjectScanner<>(decoder, "v1/configmaps", true,
            ModelGson.strings());

    @Test
    void readsTheMetadataWithoutDecodingAndKeepsBytesThatDecodeToTheClientsModel() {
        ObjectScanner.ScannedChange<V1ConfigMap> change = change("MODIFIED", OBJECT);

        assertThat(change.type()).isEqualTo(WireEvent.ChangeType.MODIFIED);
        CachedObject<V1ConfigMap> object = change.object();
        assertThat(object.isDecoded()).isFalse();
        assertThat(object.key()).isEqualTo(new ObjectKey("default", "a"));
        assertThat(object.uid()).isEqualTo("u-1");
        assertThat(object.resourceVersion()).isEqualTo("7");
        assertThat(object.generation()).isEqualTo(3L);
        assertThat(object.labels()).containsExactlyInAnyOrderEntriesOf(Map.of("app", "web", "tier", "front"));
        assertThat(object.ownerReferences()).singleElement().satisfies(owner -> {
            assertThat(owner.getKind()).isEqualTo("Deployment");
            assertThat(owner.getUid()).isEqualTo("o-1");
            assertThat(owner.getController()).isTrue();
        });
        assertThat(object.finalizers()).containsExactly("example.com/cleanup");
        assertThat(object.deletionTimestamp()).isEqualTo("2026-01-01T00:00:00Z");
        assertThat(CLIENT.toJsonTree(object.decoded())).isEqualTo(CLIENT.toJsonTree(CLIENT.fromJson(OBJECT,
                V1ConfigMap.class)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"first", "middle", "last", "only"})
    void managedFieldsAreLeftOutOfTheKeptBytesWhereverTheyStand(String where) {
        String metadata = switch (where) {
            case "first" -> "{" + MANAGED + ",\"name\":\"a\",\"resourceVersion\":\"7\"}";
            case "middle" -> "{\"name\":\"a\", " + MANAGED + " ,\"resourceVersion\":\"7\"}";
            case "last" -> "{\"name\":\"a\",\"resourceVersion\":\"7\"," + MANAGED + "}";
            default -> "{" + MANAGED + "}";
        };
        String json = "{\"kind\":\"ConfigMap\",\"metadata\":" + metadata + ",\"data\":{\"k\":\"v\"}}";
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);

        ObjectScanner.ScannedList<V1ConfigMap> list = scanner.list(("{\"metadata\":{\"resourceVersion\":\"9\"},"
                + "\"items\":[" + json + "]}").getBytes(StandardCharsets.UTF_8));
        CachedObject<V1ConfigMap> object = list == null ? null : list.items().get(0);

        if (where.equals("only")) {
            assertThat(object).as("no name: read as a tree instead").isNull();
            return;
        }
        assertThat(object).isNotNull();
        assertThat(object.decoded().getData()).containsExactly(Map.entry("k", "v"));
        String kept = decoder.lastJson;
        assertThat(kept).doesNotContain("managedFields").hasSizeLessThan(bytes.length);
        assertThat(JsonParser.parseString(kept).getAsJsonObject().getAsJsonObject("metadata").keySet())
                .containsExactlyInAnyOrder("name", "resourceVersion");
    }

    @Test
    void aListIsReadWithItsVersionAndContinueToken() {
        ObjectScanner.ScannedList<V1ConfigMap> list = scanner.list(("{\"kind\":\"ConfigMapList\",\"metadata\":"
                + "{\"resourceVersion\":\"12\",\"continue\":\"abc\"},\"items\":[" + OBJECT + "," + OBJECT.replace(
                        "\"name\":\"a\"", "\"name\":\"b\"") + "]}").getBytes(StandardCharsets.UTF_8));

        assertThat(list.resourceVersion()).isEqualTo("12");
        assertThat(list.continueToken()).isEqualTo("abc");
        assertThat(list.items()).extracting(o -> o.key().name()).containsExactly("a", "b");
    }

    @Test
    void aListReadsTheShardSelectorTheServerApplied() {
        String selector = "shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000')";
        ObjectScanner.ScannedList<V1ConfigMap> sharded = scanner.list(("{\"metadata\":{\"resourceVersion\":\"12\","
                + "\"shardInfo\":{\"selector\":\"" + selector + "\",\"future\":[1]}},\"items\":[" + OBJECT + "]}")
                .getBytes(StandardCharsets.UTF_8));
        ObjectScanner.ScannedList<V1ConfigMap> plain = scanner.list(("{\"metadata\":{\"resourceVersion\":\"12\"},"
                + "\"items\":[" + OBJECT + "]}").getBytes(StandardCharsets.UTF_8));

        assertThat(sharded.shardSelector()).isEqualTo(selector);
        assertThat(sharded.resourceVersion()).isEqualTo("12");
        assertThat(sharded.items()).hasSize(1);
        assertThat(plain.shardSelector()).isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "{\"type\":\"ADDED\",\"object\":{\"metadata\":{\"n\\u0061me\":\"a\"}}}", // an escaped key
            "{\"type\":\"ADDED\",\"object\":{\"metadata\":{\"name\":\"a\"},\"metadata\":{\"name\":\"b\"}}}",
            "{\"type\":\"ADDED\",\"object\":{\"metadata\":{\"name\":\"a\"}},\"type\":\"BOGUS\"}",
            "{\"type\":\"ADDED\",\"object\":{\"metadata\":{\"name\":\"a\"},\"data\":{\"k\":tru}}}",
            "{\"type\":\"ADDED\",\"object\":{\"metadata\":{\"name\":\"a\"}}} trailing",
            "{\"type\":\"ADDED\",\"object\":{\"metadata\":{\"namespace\":\"x\"}}}",
            "{\"type\":\"ADDED\",\"object\":{\"metadata\":[\"a\"]}}",
            "{\"type\":\"ADDED\",\"object\":{\"metadata\":{\"name\":\"a\",\"generation\":1.5}}}",
            "{\"type\":\"ADDED\",\"object\":{\"metadata\":{\"name\":\"a\",\"labels\":{\"k\":1}}}}",
            "{\"type\":\"BOOKMARK\",\"object\":{\"metadata\":{\"resourceVersion\":\"1\"}}}",
            "{\"type\":\"ADDED\",\"object\":{\"metadata\":{\"name\":\"a\"}"})
    void anythingItDoesNotReadExactlyIsLeftToTheTreeReader(String line) {
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        assertThat(scanner.change(bytes, bytes.length)).isNull();
    }

    private ObjectScanner.ScannedChange<V1ConfigMap> change(String type, String object) {
        byte[] line = ("{\"type\":\"" + type + "\",\"object\":" + object + "}").getBytes(StandardCharsets.UTF_8);
        return scanner.change(line, line.length);
    }

    /** The client's decoder, remembering the JSON it was last handed: what an object keeps. */
    private static final class Capturing implements CachedObject.Decoder<V1ConfigMap> {
        final ObjectDecoder<V1ConfigMap> decoder = new ObjectDecoder<>(CLIENT, V1ConfigMap.class);
        String lastJson;

        @Override
        public V1ConfigMap decode(byte[] json) {
            lastJson = new String(json, StandardCharsets.UTF_8);
            return decoder.decode(json);
        }

        @Override
        public String problem(byte[] json, Exception failure) {
            return decoder.problem(json, failure);
        }
    }
}
