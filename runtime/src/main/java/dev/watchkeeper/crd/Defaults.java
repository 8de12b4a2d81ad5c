package dev.watchkeeper.crd;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;
import com.google.gson.Strictness;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import java.io.IOException;
import java.io.StringReader;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The value of a field's {@code @Default} as the schema's {@code default}: maps, lists, strings, numbers, booleans. */
final class Defaults {

    private Defaults() {
    }

    /** A string schema's default is {@code text} itself; any other's is {@code text} read as strict JSON. */
    static Object parse(String text, Map<String, Object> schema, String where) {
        if ("string".equals(schema.get("type"))) {
            Object values = schema.get("enum");
            if (values instanceof List<?> allowed && !allowed.contains(text)) {
                throw new IllegalArgumentException("@Default(\"" + text + "\") on " + where + " is none of " + allowed);
            }
            return text;
        }
        try (JsonReader reader = new JsonReader(new StringReader(text))) {
            reader.setStrictness(Strictness.STRICT);
            JsonElement value = JsonParser.parseReader(reader);
            if (reader.peek() != JsonToken.END_DOCUMENT) {
                throw new IllegalArgumentException("more than one value");
            }
            return plain(value);
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("@Default(\"" + text + "\") on " + where
                    + " is not JSON (a default other than a string's is written as JSON): " + e.getMessage(), e);
        }
    }

    private static Object plain(JsonElement value) {
        if (value.isJsonObject()) {
            Map<String, Object> map = new LinkedHashMap<>();
            value.getAsJsonObject().entrySet().forEach(entry -> map.put(entry.getKey(), plain(entry.getValue())));
            return map;
        }
        if (value instanceof JsonArray array) {
            List<Object> list = new ArrayList<>();
            array.forEach(item -> list.add(plain(item)));
            return list;
        }
        if (value instanceof JsonPrimitive primitive) {
            if (primitive.isBoolean()) {
                return primitive.getAsBoolean();
            }
            if (primitive.isNumber()) {
                BigDecimal number = primitive.getAsBigDecimal();
                return number.stripTrailingZeros().scale() <= 0 ? (Object) number.longValueExact()
                        : (Object) number.doubleValue();
            }
            return primitive.getAsString();
        }
        throw new IllegalArgumentException("null is no default: leave the field without @Default");
    }
}
