package dev.watchkeeper.test.apiserver;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

import java.util.List;

/**
 * Drops the empty fields a real server does not store: the real server decodes {@code metadata} (and built-in
 * objects) into Go structs whose {@code omitempty} fields vanish when empty, so {@code labels: {}} or
 * {@code finalizers: []} never come back. A custom resource's own fields are kept as sent.
 */
final class EmptyFields {

    private static final List<String> METADATA = List.of("labels", "annotations", "finalizers", "ownerReferences",
            "managedFields");
    private static final List<String> BUILT_IN_DATA = List.of("data", "binaryData", "stringData");

    private EmptyFields() {
    }

    /** Removes the empty fields of {@code object} in place; returns it. */
    static JsonObject omit(JsonObject object, boolean builtIn) {
        JsonObject metadata = Json.object(object, "metadata");
        METADATA.forEach(field -> removeIfEmpty(metadata, field));
        if (builtIn) {
            BUILT_IN_DATA.forEach(field -> removeIfEmpty(object, field));
        }
        return object;
    }

    private static void removeIfEmpty(JsonObject parent, String field) {
        JsonElement value = parent.get(field);
        if (value != null && (value.isJsonNull()
                || (value.isJsonObject() && value.getAsJsonObject().isEmpty())
                || (value.isJsonArray() && value.getAsJsonArray().isEmpty()))) {
            parent.remove(field);
        }
    }
}
