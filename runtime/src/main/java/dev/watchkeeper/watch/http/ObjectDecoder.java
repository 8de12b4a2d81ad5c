package dev.watchkeeper.watch.http;

import com.google.gson.Gson;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.TypeAdapter;
import com.google.gson.stream.JsonReader;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import java.io.IOException;

/**
 * Decodes one object of a list or watch event into the watcher's type, from its JSON tree or straight from a stream.
 * From a tree, a poison object becomes a description (namespace/name/rv), never an exception that stalls the
 * watcher. The client's generated models are read with {@link ModelGson}, any other type with the client's Gson.
 */
final class ObjectDecoder<T extends KubernetesObject> {

    /** The object, or {@code problem} naming what could not be decoded. */
    record Decoded<T>(T object, String problem, String resourceVersion) {
    }

    private final TypeAdapter<T> adapter;
    private final boolean dynamic;

    @SuppressWarnings("unchecked")
    ObjectDecoder(Gson gson, Class<T> type) {
        this.dynamic = DynamicKubernetesObject.class.isAssignableFrom(type);
        this.adapter = dynamic ? null : (ModelGson.covers(type) ? ModelGson.gson() : gson).getAdapter(type);
    }

    /** Whether {@link #read} can decode this type from a stream (not for dynamic objects, which need the tree). */
    boolean streams() {
        return !dynamic;
    }

    /**
     * Reads the object at the reader's position, or throws: a caller that wants to know what was wrong decodes the
     * same JSON again as a tree.
     */
    T read(JsonReader reader) throws IOException {
        return adapter.read(reader);
    }

    @SuppressWarnings("unchecked")
    Decoded<T> decode(JsonElement element) {
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
