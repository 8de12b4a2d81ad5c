package dev.watchkeeper.internal.watch.http;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

/** Safe reads of metadata fields from a JSON tree whose shape is not trusted. */
final class JsonFields {

    private JsonFields() {
    }

    static JsonObject object(JsonElement element, String field) {
        if (element == null || !element.isJsonObject()) {
            return null;
        }
        JsonElement value = element.getAsJsonObject().get(field);
        return value != null && value.isJsonObject() ? value.getAsJsonObject() : null;
    }

    static String string(JsonElement element, String field) {
        if (element == null || !element.isJsonObject()) {
            return null;
        }
        JsonElement value = element.getAsJsonObject().get(field);
        return value != null && value.isJsonPrimitive() ? value.getAsString() : null;
    }

    static String resourceVersion(JsonElement object) {
        return string(object(object, "metadata"), "resourceVersion");
    }

    /** {@code " (namespace/name at resourceVersion rv)"} with whatever is known, for messages. */
    static String where(JsonElement object) {
        JsonObject metadata = object(object, "metadata");
        String namespace = string(metadata, "namespace");
        String name = string(metadata, "name");
        String rv = string(metadata, "resourceVersion");
        if (name == null && rv == null) {
            return "";
        }
        return " (" + (name == null ? "unnamed" : namespace == null ? name : namespace + "/" + name)
                + (rv == null ? "" : " at resourceVersion " + rv) + ")";
    }
}
