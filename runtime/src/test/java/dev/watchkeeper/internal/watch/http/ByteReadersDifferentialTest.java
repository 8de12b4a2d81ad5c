package dev.watchkeeper.internal.watch.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonPrimitive;
import com.google.gson.Strictness;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import com.google.gson.stream.MalformedJsonException;
import dev.watchkeeper.internal.json.ByteJsonReader;
import dev.watchkeeper.internal.json.ModelGson;
import dev.watchkeeper.internal.json.ObjectDecoder;
import dev.watchkeeper.internal.json.SharedStrings;
import dev.watchkeeper.internal.watch.WireEvent;
import dev.watchkeeper.store.CachedObject;
import dev.watchkeeper.store.ObjectKey;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import okhttp3.MediaType;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;
import org.junit.jupiter.api.Test;
import org.springframework.util.unit.DataSize;

/**
 * Differential properties of the two byte readers ({@link ObjectScanner}, {@link ByteJsonReader}) against the
 * client's own decoding ({@link ClientDecoding}), on generated JSON ({@link GeneratedJson}): valid watch lines and
 * objects, and the same cut short or with bytes changed. Either reader may give up on its input and leave it to the
 * tree reader; what is held to the client is the end result: the same event and model, or a rejection on both sides.
 * Where the scanner reads an object's metadata from its bytes, that metadata must be the decoded model's. Tries and
 * seeds: {@link Tries}.
 */
class ByteReadersDifferentialTest {

    @Test
    void watchLinesBecomeTheEventsTheClientReads() {
        Tries.run("watch lines", random -> {
            GeneratedJson json = new GeneratedJson(random, false);
            boolean pod = random.nextBoolean();
            String line = random.nextInt(10) == 0 ? json.bookmarkLine()
                    : json.watchLine(pod ? json.pod() : json.configMap());
            byte[] bytes = json.mutate(line.getBytes(StandardCharsets.UTF_8));
            Class<? extends KubernetesObject> type = pod ? V1Pod.class : V1ConfigMap.class;
            assertAgree(bytes, ours(bytes, type, random.nextBoolean()), ClientDecoding.watchLine(bytes, type));
        });
    }

    @Test
    void objectsAndListItemsDecodeAsTheClientDecodesThem() {
        Tries.run("objects", random -> {
            GeneratedJson json = new GeneratedJson(random, true);
            boolean pod = random.nextBoolean();
            Class<? extends KubernetesObject> type = pod ? V1Pod.class : V1ConfigMap.class;
            byte[] object = json.mutate((pod ? json.pod() : json.configMap()).getBytes(StandardCharsets.UTF_8));
            assertAgree(object, decoded(new ObjectDecoder<>(ClientDecoding.CLIENT, type).decode(object), null),
                    ClientDecoding.object(object, type));

            byte[] list = concat("{\"metadata\":{\"resourceVersion\":\"9\"},\"items\":[", object, "]}");
            List<Outcome> scanned = scannedItems(list, type, random.nextBoolean());
            if (scanned != null) { // else the body is read as a tree, as the client reads it
                assertAgree(list, scanned, ClientDecoding.listItems(list, type));
            }
        });
    }

    @Test
    void theByteReaderReadsTheTokensGsonReads() {
        Tries.run("tokens", random -> {
            GeneratedJson json = new GeneratedJson(random, true);
            byte[] document = json.mutate(json.object().getBytes(StandardCharsets.UTF_8));
            String text = new String(document, StandardCharsets.UTF_8);
            Object ours = tokens(new ByteJsonReader(document, new SharedStrings()));
            Object strict = tokens(gsonReader(text, Strictness.STRICT));
            if (strict instanceof List<?> && !unpairedEscapedSurrogate(ours)) {
                assertThat(ours).as("what Gson reads strictly, read from %s", printable(document)).isEqualTo(strict);
            }
            if (ours instanceof List<?>) {
                assertThat(ours).as("what we read, read by Gson from %s", printable(document))
                        .isEqualTo(tokens(gsonReader(text, Strictness.LEGACY_STRICT)));
            }
        });
    }

    private static void assertAgree(byte[] input, Object ours, Object client) {
        assertThat(ours).as("ours, against the client's reading of %s", printable(input)).isEqualTo(client);
    }

    /** What the watcher makes of {@code line}: read as a watch response by {@link HttpEventStream}. */
    private static <T extends KubernetesObject> Outcome ours(byte[] line, Class<T> type, boolean stripManagedFields)
            throws IOException {
        Response response = new Response.Builder()
                .request(new Request.Builder().url("http://localhost/api/v1/things?watch=true").build())
                .protocol(Protocol.HTTP_1_1).code(200).message("OK")
                .body(ResponseBody.create(concat("", line, "\n"), MediaType.get("application/json")))
                .build();
        ObjectDecoder<T> decoder = new ObjectDecoder<>(ClientDecoding.CLIENT, type);
        WireEvent<T> event;
        try (HttpEventStream<T> stream = new HttpEventStream<>(response, decoder, new ObjectScanner<>(decoder,
                "v1/things", stripManagedFields, ModelGson.strings()), Duration.ofMinutes(1), DataSize.ofMegabytes(16),
                null)) {
            event = stream.next();
        } catch (IOException brokenStream) {
            return new Outcome.Rejected("ours: " + brokenStream.getMessage());
        }
        if (event instanceof WireEvent.Change<T> change) {
            Outcome outcome = decoded(change.cached());
            if (outcome instanceof Outcome.Change && !Objects.equals(change.resourceVersion(),
                    change.cached().resourceVersion())) {
                return new Outcome.Inconsistent("the event's resourceVersion " + change.resourceVersion()
                        + " is not its object's " + change.cached().resourceVersion());
            }
            return outcome instanceof Outcome.Change decodedChange
                    ? new Outcome.Change(change.type().name(), decodedChange.model()) : outcome;
        }
        if (event instanceof WireEvent.Bookmark<T> bookmark) {
            return Outcome.bookmark(bookmark.resourceVersion(), bookmark.initialEventsEnd());
        }
        if (event instanceof WireEvent.ErrorStatus<T> error) {
            return new Outcome.Error(error.code(), error.reason());
        }
        return new Outcome.Rejected("ours: " + (event == null ? "no event" : event));
    }

    /** The items the scanner reads from a list body, or {@code null} if it leaves the body to the tree reader. */
    private static <T extends KubernetesObject> List<Outcome> scannedItems(byte[] list, Class<T> type,
            boolean stripManagedFields) {
        ObjectDecoder<T> decoder = new ObjectDecoder<>(ClientDecoding.CLIENT, type);
        ObjectScanner.ScannedList<T> scanned = new ObjectScanner<>(decoder, "v1/things", stripManagedFields,
                ModelGson.strings()).list(list);
        if (scanned == null) {
            return null;
        }
        List<Outcome> items = new ArrayList<>();
        scanned.items().forEach(item -> items.add(decoded(item)));
        return items;
    }

    /** The object the cache hands out once it is read, checked against the metadata read from its bytes. */
    private static <T extends KubernetesObject> Outcome decoded(CachedObject<T> cached) {
        T model = cached.decoded();
        if (model == null) {
            return new Outcome.Rejected("ours: " + cached.problem());
        }
        return decoded(model, metadataMismatch(cached, model.getMetadata()));
    }

    private static Outcome decoded(KubernetesObject model, String mismatch) {
        if (mismatch != null) {
            return new Outcome.Inconsistent(mismatch);
        }
        return model == null ? new Outcome.Rejected("ours: does not decode")
                : new Outcome.Change(null, ClientDecoding.written(model));
    }

    /** Where the metadata the cache keeps for an object differs from its model's, or {@code null}. */
    private static String metadataMismatch(CachedObject<?> cached, V1ObjectMeta metadata) {
        List<String> wrong = new ArrayList<>();
        compare(wrong, "key", cached.key(), new ObjectKey(metadata.getNamespace(), metadata.getName()));
        compare(wrong, "uid", cached.uid(), metadata.getUid());
        compare(wrong, "resourceVersion", cached.resourceVersion(), metadata.getResourceVersion());
        compare(wrong, "generation", cached.generation(), metadata.getGeneration());
        compare(wrong, "labels", cached.labels(), Objects.requireNonNullElse(metadata.getLabels(), Map.of()));
        compare(wrong, "ownerReferences", cached.ownerReferences(),
                Objects.requireNonNullElse(metadata.getOwnerReferences(), List.of()));
        compare(wrong, "finalizers", cached.finalizers(),
                Objects.requireNonNullElse(metadata.getFinalizers(), List.of()));
        OffsetDateTime deletion = metadata.getDeletionTimestamp();
        String kept = cached.deletionTimestamp();
        if ((kept == null) != (deletion == null) || kept != null && !time(kept).isEqual(deletion)) {
            wrong.add("deletionTimestamp: " + kept + " kept, " + deletion + " decoded");
        }
        return wrong.isEmpty() ? null : String.join("; ", wrong);
    }

    private static void compare(List<String> wrong, String field, Object kept, Object decoded) {
        if (!Objects.equals(kept, decoded)) {
            wrong.add(field + ": " + kept + " kept, " + decoded + " decoded");
        }
    }

    /** A kept deletion time: as the server wrote it (read by the client's adapter), or as a model prints it. */
    private static OffsetDateTime time(String text) {
        try {
            return ClientDecoding.CLIENT.getAdapter(OffsetDateTime.class).fromJsonTree(new JsonPrimitive(text));
        } catch (RuntimeException notRfc3339) {
            return OffsetDateTime.parse(text);
        }
    }

    private static JsonReader gsonReader(String text, Strictness strictness) {
        JsonReader reader = new JsonReader(new StringReader(text));
        reader.setStrictness(strictness);
        return reader;
    }

    /** Every token with its value, or the exception's class when the reader fails. */
    private static Object tokens(JsonReader reader) {
        List<String> tokens = new ArrayList<>();
        try {
            while (true) {
                JsonToken token = reader.peek();
                switch (token) {
                    case BEGIN_OBJECT -> reader.beginObject();
                    case END_OBJECT -> reader.endObject();
                    case BEGIN_ARRAY -> reader.beginArray();
                    case END_ARRAY -> reader.endArray();
                    case NAME -> tokens.add(reader.nextName());
                    case STRING, NUMBER -> tokens.add(reader.nextString());
                    case BOOLEAN -> tokens.add(Boolean.toString(reader.nextBoolean()));
                    case NULL -> reader.nextNull();
                    case END_DOCUMENT -> {
                        return tokens;
                    }
                }
                tokens.add(token.name());
            }
        } catch (IOException | RuntimeException e) {
            return e instanceof MalformedJsonException && String.valueOf(e.getMessage()).contains("escaped surrogate")
                    ? UnpairedSurrogate.INSTANCE : e.getClass();
        }
    }

    /** The byte reader's refusal of an escaped surrogate that is not half of a pair, which has no UTF-8 form. */
    private enum UnpairedSurrogate { INSTANCE }

    private static boolean unpairedEscapedSurrogate(Object tokens) {
        return tokens == UnpairedSurrogate.INSTANCE;
    }

    private static byte[] concat(String before, byte[] middle, String after) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(before.getBytes(StandardCharsets.UTF_8));
        out.writeBytes(middle);
        out.writeBytes(after.getBytes(StandardCharsets.UTF_8));
        return out.toByteArray();
    }

    /** The input for a failure message: printable ASCII as it is, every other byte as {@code \xNN}. */
    private static String printable(byte[] input) {
        StringBuilder out = new StringBuilder();
        for (byte b : input) {
            int c = b & 0xff;
            out.append(c >= 0x20 && c < 0x7f && c != '\\' ? String.valueOf((char) c) : String.format("\\x%02x", c));
        }
        return out.toString();
    }
}
