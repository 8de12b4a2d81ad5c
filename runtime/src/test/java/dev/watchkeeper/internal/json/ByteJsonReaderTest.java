package dev.watchkeeper.internal.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.gson.Gson;
import com.google.gson.JsonSyntaxException;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import com.google.gson.stream.MalformedJsonException;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1Secret;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ByteJsonReaderTest {

    private static final Gson CLIENT = new JSON().getGson();

    private static final String POD = """
            {"apiVersion":"v1","kind":"Pod","metadata":{"name":"web-0","namespace":"shop","uid":"3f9c","resourceVersion":"12",
             "generation":2,"creationTimestamp":"2026-01-01T10:20:30Z","deletionTimestamp":"2026-01-02T00:00:00.5+02:00",
             "labels":{"app":"web","tier":"fr\\u00f6nt"},"annotations":{"note":"line1\\nline2\\t\\"quoted\\" \\\\ \\/ \\ud83d\\ude00 ü €"},
             "finalizers":["a/b","c"],"ownerReferences":[{"apiVersion":"apps/v1","kind":"StatefulSet","name":"web","uid":"9",
             "controller":true,"blockOwnerDeletion":false}]},
             "spec":{"containers":[{"name":"c","image":"nginx:1","args":[],"ports":[{"containerPort":8080,"protocol":"TCP"}],
             "resources":{"limits":{"cpu":"500m","memory":"1Gi"},"requests":{"cpu":0.25,"memory":1e3}},
             "readinessProbe":{"httpGet":{"path":"/","port":"http"},"periodSeconds":1.0e1}}],
             "terminationGracePeriodSeconds":-0,"activeDeadlineSeconds":9007199254740993,"nodeSelector":{},"tolerations":[
             {"key":"k","operator":"Exists","tolerationSeconds":30}],"hostNetwork":false,"priority":null},
             "status":{"phase":"Running","conditions":[{"type":"Ready","status":"True","lastTransitionTime":"2026-01-01T10:20:31Z"}],
             "podIP":"10.0.0.1","startTime":"2026-01-01T10:20:30.123456789Z"}}
            """;

    private static final String SECRET = """
            {"apiVersion":"v1","kind":"Secret","metadata":{"name":"s","namespace":"d"},"type":"Opaque",
             "data":{"password":"cGFzc3dvcmQ=","empty":""},"stringData":null,"immutable":true}
            """;

    @Test
    void modelsDecodeFromBytesExactlyAsTheClientDecodesTheirText() throws IOException {
        assertSameAsClient(POD, V1Pod.class);
        assertSameAsClient(SECRET, V1Secret.class);
        assertSameAsClient(longConfigMap(), V1ConfigMap.class);
    }

    @Test
    void everyTokenAndValueIsWhatGsonsOwnReaderReads() throws IOException {
        List<String> documents = new ArrayList<>(List.of(POD, SECRET, longConfigMap(),
                "[]", "{}", " [ 1 , -2.5e-3 , 0 , -0 , 1E+2 , true , false , null , \"\" , [ [ ] ] , { \"a\" : { } } ] ",
                "\"x\\u0041\\u00e9\\u20ac\\ud83d\\ude00\"", "{\"ü€😀\":\"😀€ü\"}"));
        Random random = new Random(42);
        for (int i = 0; i < 200; i++) {
            documents.add("{\"k\":\"" + randomString(random) + "\",\"n\":[\"" + randomString(random) + "\"]}");
        }
        for (String document : documents) {
            assertThat(tokens(reader(document))).as(document)
                    .isEqualTo(tokens(new JsonReader(new StringReader(document))));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"a\":1,}", "{\"a\" 1}", "{\"a\":\"x}", "{\"a\":\"\\x\"}", "{\"a\":01}", "{\"a\":1.}",
            "{\"a\":-}", "{\"a\":NaN}", "{'a':1}", "{a:1}", "[1 2]", "{\"a\":tru}", "{\"a\":\"\\u12\"}", "{} {}", ""})
    void whatGsonRejectsIsRejected(String document) {
        assertThatThrownBy(() -> tokens(new JsonReader(new StringReader(document)))).isInstanceOf(IOException.class);
        assertThatThrownBy(() -> tokens(reader(document))).isInstanceOf(IOException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"1", "-7", "1.0", "1.5", "1e2", "\"12\"", "\"1.5\"", "12345678901",
            "-0", "\"abc\"", "true"})
    void numbersConvertAsGsonConvertsThem(String value) {
        for (NumberRead read : List.of(NumberRead.INT, NumberRead.LONG, NumberRead.DOUBLE)) {
            assertThat(number(read, reader("[" + value + "]"))).as(read + " of " + value)
                    .isEqualTo(number(read, new JsonReader(new StringReader("[" + value + "]"))));
        }
    }

    /**
     * Gson's reader takes a number with a fraction or exponent through a double, which rounds past 2^53 and saturates
     * past the long range; the client's models are read from a tree, which takes it exactly (or wraps it). Ours takes
     * it exactly or refuses it, and the object decodes as the client decodes it.
     */
    @ParameterizedTest
    @CsvSource({"9223372036854775808, refused", "-9223372036854775809, refused",
        "12345678901234567.0, 12345678901234567", "1.2345678901234567e16, 12345678901234567"})
    void aLongIsTakenExactlyOrLeftToTheTreeAndTheObjectDecodesAsTheClientDecodesIt(String value, String read)
            throws Exception {
        String json = "{\"metadata\":{\"name\":\"a\"},\"spec\":{\"containers\":[],\"activeDeadlineSeconds\":" + value
                + "}}";

        assertThat(number(NumberRead.LONG, reader("[" + value + "]")))
                .isEqualTo(read.equals("refused") ? NumberFormatException.class : Long.valueOf(read));
        V1Pod decoded = new ObjectDecoder<>(CLIENT, V1Pod.class).decode(bytes(json));
        assertThat(decoded).isEqualTo(CLIENT.fromJson(json, V1Pod.class));
    }

    @Test
    void aRepeatedMapKeyFailsTheStreamingReadAndTheObjectDecodesAsTheClientDecodesIt() throws Exception {
        String json = "{\"metadata\":{\"name\":\"a\",\"labels\":{\"app\":\"x\",\"app\":\"y\"}}}";

        assertThatThrownBy(() -> ModelGson.gson().getAdapter(V1ConfigMap.class).read(reader(json)))
                .isInstanceOf(JsonSyntaxException.class).hasMessageContaining("duplicate key: app");
        V1ConfigMap decoded = new ObjectDecoder<>(CLIENT, V1ConfigMap.class).decode(bytes(json));
        assertThat(decoded).isEqualTo(CLIENT.fromJson(json, V1ConfigMap.class));
        assertThat(decoded.getMetadata().getLabels()).containsExactly(java.util.Map.entry("app", "y"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"\\ud800", "x\\udc00y", "\\ud83d\\u0041"})
    void anUnpairedEscapedSurrogateFailsTheStreamingReadAndTheObjectDecodesAsTheClientDecodesIt(String value)
            throws Exception {
        String json = "{\"metadata\":{\"name\":\"a\"},\"data\":{\"k\":\"" + value + "\"}}";

        assertThatThrownBy(() -> tokens(reader(json))).isInstanceOf(MalformedJsonException.class);
        V1ConfigMap decoded = new ObjectDecoder<>(CLIENT, V1ConfigMap.class).decode(bytes(json));
        assertThat(decoded).isEqualTo(CLIENT.fromJson(json, V1ConfigMap.class));
    }

    @Test
    void thePlainRunOfAStringEndsAtItsFirstQuoteBackslashOrControlCharacter() {
        Random random = new Random(7);
        byte[] alphabet = "ab\"\\\u0001\n~".getBytes(StandardCharsets.ISO_8859_1);
        for (int n = 0; n < 5_000; n++) {
            byte[] in = new byte[random.nextInt(40)];
            for (int i = 0; i < in.length; i++) {
                in[i] = random.nextInt(3) == 0 ? alphabet[random.nextInt(alphabet.length)] : (byte) random.nextInt(256);
            }
            int from = in.length == 0 ? 0 : random.nextInt(in.length);
            int expected = from;
            while (expected < in.length && in[expected] != '"' && in[expected] != '\\' && (in[expected] & 0xff) >= 0x20) {
                expected++;
            }
            assertThat(JsonBytes.plainRun(in, from, in.length)).isEqualTo(expected);
        }
    }

    private static <T> void assertSameAsClient(String json, Class<T> type) throws IOException {
        T ours = ModelGson.gson().getAdapter(type).read(reader(json));
        T client = CLIENT.fromJson(json, type);
        assertThat(ours).isEqualTo(client);
        assertThat(CLIENT.toJson(ours)).isEqualTo(CLIENT.toJson(client));
    }

    /** A ConfigMap whose data value is longer than Gson's 1,024-character buffer and full of escapes. */
    private static String longConfigMap() {
        StringBuilder value = new StringBuilder();
        for (int i = 0; i < 120; i++) {
            value.append("key.").append(i).append("=välue-").append(i).append("\\n\\\"").append("x".repeat(i % 9));
        }
        return "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"big\"},\"data\":{\"p\":\""
                + value + "\"}}";
    }

    /** A JSON string body: plain runs of varied lengths, escapes, multi-byte characters. */
    private static String randomString(Random random) {
        String[] pieces = {"a", "bcdefgh", "0123456789abcdef", "\\n", "\\\"", "\\\\", "\\u00e9", "\\ud83d\\ude00", "é",
            "€", "😀", "\\/", "\\t", " "};
        StringBuilder out = new StringBuilder();
        int count = random.nextInt(12);
        for (int i = 0; i < count; i++) {
            out.append(pieces[random.nextInt(pieces.length)]);
        }
        return out.toString();
    }

    private enum NumberRead { INT, LONG, DOUBLE }

    /** The value read, or the kind of exception thrown. */
    private static Object number(NumberRead read, JsonReader reader) {
        try {
            reader.beginArray();
            return switch (read) {
                case INT -> reader.nextInt();
                case LONG -> reader.nextLong();
                case DOUBLE -> reader.nextDouble();
            };
        } catch (IOException | RuntimeException e) {
            return e.getClass();
        }
    }

    /** Every token of the document with its value, read through the reader's public methods. */
    private static List<String> tokens(JsonReader reader) throws IOException {
        List<String> tokens = new ArrayList<>();
        while (true) {
            JsonToken token = reader.peek();
            switch (token) {
                case BEGIN_OBJECT -> reader.beginObject();
                case END_OBJECT -> reader.endObject();
                case BEGIN_ARRAY -> reader.beginArray();
                case END_ARRAY -> reader.endArray();
                case NAME -> tokens.add("name " + reader.nextName());
                case STRING, NUMBER -> tokens.add(token + " " + reader.nextString());
                case BOOLEAN -> tokens.add("boolean " + reader.nextBoolean());
                case NULL -> reader.nextNull();
                case END_DOCUMENT -> {
                    return tokens;
                }
            }
            tokens.add(token.name());
        }
    }

    private static ByteJsonReader reader(String text) {
        return new ByteJsonReader(bytes(text), new SharedStrings());
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
