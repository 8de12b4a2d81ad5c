package dev.watchkeeper.test.apiserver;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;

/**
 * A Secret's {@code stringData} as the real server stores it: write-only, merged into {@code data} base64-encoded
 * (a key in both takes the {@code stringData} value), and never returned.
 */
final class SecretStrings {

    private SecretStrings() {
    }

    /** Merges {@code object}'s {@code stringData} into its {@code data} in place when it is a core Secret. */
    static void merge(ApiResource resource, JsonObject object) {
        if (!resource.group().isEmpty() || !"secrets".equals(resource.plural()) || !object.has("stringData")) {
            return;
        }
        JsonElement strings = object.remove("stringData");
        if (strings == null || !strings.isJsonObject() || strings.getAsJsonObject().isEmpty()) {
            return;
        }
        JsonObject data = object.has("data") && object.get("data").isJsonObject() ? object.getAsJsonObject("data")
                : new JsonObject();
        for (Map.Entry<String, JsonElement> entry : strings.getAsJsonObject().entrySet()) {
            data.addProperty(entry.getKey(), Base64.getEncoder()
                    .encodeToString(entry.getValue().getAsString().getBytes(StandardCharsets.UTF_8)));
        }
        object.add("data", data);
    }
}
