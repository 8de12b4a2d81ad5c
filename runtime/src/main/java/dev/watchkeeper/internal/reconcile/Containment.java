package dev.watchkeeper.internal.reconcile;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.Map;

/**
 * Whether a stored object already holds every field a desired one sets, so that applying it would change nothing that
 * matters: each field of the desired JSON is in the stored JSON with an equal value (objects field by field, lists
 * element by element and of the same length). Fields only the stored copy has (the server's defaults, other managers'
 * fields, status) do not count, nor an empty list or map the desired object sets: the server keeps none, so it sets
 * nothing.
 */
final class Containment {

    private Containment() {
    }

    static boolean holds(JsonElement stored, JsonElement desired) {
        if (desired == null || desired.isJsonNull() || isEmpty(desired)) {
            return true; // client-java's models start with empty lists and maps; the server stores none
        }
        if (stored == null || stored.isJsonNull()) {
            return false;
        }
        if (desired.isJsonObject()) {
            if (!stored.isJsonObject()) {
                return false;
            }
            JsonObject have = stored.getAsJsonObject();
            for (Map.Entry<String, JsonElement> field : desired.getAsJsonObject().entrySet()) {
                if (!holds(have.get(field.getKey()), field.getValue())) {
                    return false;
                }
            }
            return true;
        }
        if (desired.isJsonArray()) {
            if (!stored.isJsonArray()) {
                return false;
            }
            JsonArray want = desired.getAsJsonArray();
            JsonArray have = stored.getAsJsonArray();
            if (want.size() != have.size()) {
                return false;
            }
            for (int i = 0; i < want.size(); i++) {
                if (!holds(have.get(i), want.get(i))) {
                    return false;
                }
            }
            return true;
        }
        return desired.equals(stored);
    }

    private static boolean isEmpty(JsonElement element) {
        return element.isJsonArray() && element.getAsJsonArray().isEmpty()
                || element.isJsonObject() && element.getAsJsonObject().isEmpty();
    }
}
