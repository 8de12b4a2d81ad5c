package dev.watchkeeper.internal.json;

import com.google.gson.Gson;
import com.google.gson.JsonSyntaxException;
import com.google.gson.TypeAdapter;
import com.google.gson.TypeAdapterFactory;
import com.google.gson.reflect.TypeToken;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import com.google.gson.stream.JsonWriter;
import java.io.IOException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads and writes the models' {@code Map<String, V>} fields (labels, annotations, data, resource lists) with
 * nothing but {@link JsonReader}'s public methods, so that they can be read by a {@link ByteJsonReader} too: Gson's
 * own map adapter reaches into the private state of Gson's reader. As Gson's does, it keeps the keys in their order
 * and rejects a repeated key; keys are shared like every other short string ({@link SharedStrings}).
 */
final class StringKeyMaps implements TypeAdapterFactory {

    private final SharedStrings strings;

    StringKeyMaps(SharedStrings strings) {
        this.strings = strings;
    }

    @Override
    public <T> TypeAdapter<T> create(Gson gson, TypeToken<T> type) {
        if (type.getRawType() != Map.class || !(type.getType() instanceof ParameterizedType parameters)
                || parameters.getActualTypeArguments()[0] != String.class) {
            return null;
        }
        Type values = parameters.getActualTypeArguments()[1];
        @SuppressWarnings({"unchecked", "rawtypes"})
        TypeAdapter<T> adapter = (TypeAdapter<T>) new Adapter<>(gson.getAdapter(TypeToken.get(values)));
        return adapter;
    }

    private final class Adapter<V> extends TypeAdapter<Map<String, V>> {

        private final TypeAdapter<V> values;

        Adapter(TypeAdapter<V> values) {
            this.values = values;
        }

        @Override
        public Map<String, V> read(JsonReader in) throws IOException {
            if (in.peek() == JsonToken.NULL) {
                in.nextNull();
                return null;
            }
            Map<String, V> map = new LinkedHashMap<>();
            in.beginObject();
            while (in.hasNext()) {
                String key = strings.share(in.nextName());
                if (map.put(key, values.read(in)) != null) {
                    throw new JsonSyntaxException("duplicate key: " + key);
                }
            }
            in.endObject();
            return map;
        }

        @Override
        public void write(JsonWriter out, Map<String, V> map) throws IOException {
            if (map == null) {
                out.nullValue();
                return;
            }
            out.beginObject();
            for (Map.Entry<String, V> entry : map.entrySet()) {
                out.name(entry.getKey());
                values.write(out, entry.getValue());
            }
            out.endObject();
        }
    }
}
