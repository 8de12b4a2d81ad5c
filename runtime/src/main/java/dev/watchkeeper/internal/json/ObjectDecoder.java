package dev.watchkeeper.internal.json;

import com.google.gson.Gson;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.TypeAdapter;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import io.kubernetes.client.common.KubernetesObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import dev.watchkeeper.store.CachedObject;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;

/**
 * Decodes one object of a list or watch event, or of a write's answer, into its type: from the bytes a
 * {@link CachedObject} keeps, from its JSON tree, or straight from a stream. A poison object becomes a description
 * (namespace/name/rv), never an exception that stalls the watcher. The client's generated models are read with
 * {@link ModelGson} (which skips fields the model does not know, as client-go does, where the client's own decoding
 * rejects them), any other type with the client's Gson, the client's models in it ({@code metadata}, conditions)
 * again with {@link ModelGson}.
 */
public final class ObjectDecoder<T extends KubernetesObject> implements CachedObject.Decoder<T> {

    /** The object, or {@code problem} naming what could not be decoded. */
    public record Decoded<T>(T object, String problem, String resourceVersion) {
    }

    private final TypeAdapter<T> adapter;
    private final boolean dynamic;
    /** Whether {@link #adapter} is {@link ModelGson}'s, which reads from a {@link ByteJsonReader}. */
    private final boolean readsBytes;

    /** For {@code type}; {@code gson} (the client's) reads whatever is not one of the client's models. */
    @SuppressWarnings("unchecked")
    public ObjectDecoder(Gson gson, Class<T> type) {
        this.dynamic = DynamicKubernetesObject.class.isAssignableFrom(type);
        this.readsBytes = !dynamic && ModelGson.covers(type);
        this.adapter = dynamic ? null : (readsBytes ? ModelGson.gson() : ModelGson.around(gson)).getAdapter(type);
    }

    /**
     * The model of {@code json} in one streaming pass; if that fails, from its JSON tree, which keeps the last of
     * repeated keys as the API server's own JSON does; {@code null} if neither decodes ({@link #problem} says why).
     */
    @Override
    public T decode(byte[] json) {
        if (!dynamic) {
            try (JsonReader reader = readsBytes
                    ? new ByteJsonReader(json, ModelGson.strings())
                    : new JsonReader(new StringReader(new String(json, StandardCharsets.UTF_8)))) {
                T object = adapter.read(reader);
                if (object != null && object.getMetadata() != null && object.getMetadata().getName() != null
                        && reader.peek() == JsonToken.END_DOCUMENT) { // anything after the object: the tree says what
                    return object;
                }
            } catch (IOException | RuntimeException failed) {
                // read as a tree below
            }
        }
        try {
            return decode(JsonParser.parseString(new String(json, StandardCharsets.UTF_8))).object();
        } catch (JsonParseException notJson) {
            return null;
        }
    }

    @Override
    public String problem(byte[] json, Exception failure) {
        JsonElement tree;
        try {
            tree = JsonParser.parseString(new String(json, StandardCharsets.UTF_8));
        } catch (JsonParseException e) {
            return "an object that is not JSON (" + e.getClass().getSimpleName() + ")";
        }
        Decoded<T> decoded = decode(tree);
        if (decoded.problem() != null) {
            return decoded.problem();
        }
        return "an object that does not decode (" + (failure == null ? "no model" : failure.getClass().getSimpleName())
                + ")" + JsonFields.where(tree);
    }

    /** Decodes an object that an event or a list carried as a JSON tree. */
    @SuppressWarnings("unchecked")
    public Decoded<T> decode(JsonElement element) {
        String rv = JsonFields.resourceVersion(element);
        if (element == null || !element.isJsonObject()) {
            return new Decoded<>(null, "an object that is not a JSON object" + JsonFields.where(element), rv);
        }
        T object;
        try {
            object = dynamic
                    ? (T) new DynamicKubernetesObject((JsonObject) element)
                    : adapter.fromJsonTree(element);
        } catch (RuntimeException e) {
            return new Decoded<>(null, "an object that does not decode (" + e.getClass().getSimpleName() + ")"
                    + JsonFields.where(element), rv);
        }
        if (object == null || object.getMetadata() == null || object.getMetadata().getName() == null) {
            return new Decoded<>(null, "an object without metadata.name" + JsonFields.where(element), rv);
        }
        return new Decoded<>(object, null, object.getMetadata().getResourceVersion());
    }
}
