package dev.watchkeeper.test.apiserver;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

import java.util.Map;

/** RFC 7386 JSON merge patch; with {@code strategic}, keys starting with {@code $} (kubectl directives) are dropped. */
final class MergePatch {

    private MergePatch() {
    }

    /** Returns the patched copy of {@code target}; neither argument is modified. */
    static JsonElement apply(JsonElement target, JsonElement patch, boolean strategic) {
        if (!patch.isJsonObject()) {
            return patch.deepCopy();
        }
        JsonObject result = target != null && target.isJsonObject() ? target.getAsJsonObject().deepCopy() : new JsonObject();
        for (Map.Entry<String, JsonElement> entry : patch.getAsJsonObject().entrySet()) {
            String key = entry.getKey();
            if (strategic && key.startsWith("$")) {
                continue;
            }
            JsonElement value = entry.getValue();
            if (value.isJsonNull()) {
                result.remove(key);
            } else {
                result.add(key, apply(result.get(key), value, strategic));
            }
        }
        return result;
    }
}
