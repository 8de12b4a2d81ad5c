package dev.watchkeeper.internal.json;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

/** Safe reads of metadata fields from a JSON tree whose shape is not trusted. */
public final class JsonFields {

    private JsonFields() {
    }

    /** The object {@code field} of {@code element}, or {@code null} when either is not an object. */
    public static JsonObject object(JsonElement element, String field) {
        if (element == null || !element.isJsonObject()) {
            return null;
        }
        JsonElement value = element.getAsJsonObject().get(field);
        return value != null && value.isJsonObject() ? value.getAsJsonObject() : null;
    }

    /** The value of {@code field} of {@code element} as text, or {@code null} when it is not a primitive. */
    public static String string(JsonElement element, String field) {
        if (element == null || !element.isJsonObject()) {
            return null;
        }
        JsonElement value = element.getAsJsonObject().get(field);
        return value != null && value.isJsonPrimitive() ? value.getAsString() : null;
    }

    /** {@code metadata.resourceVersion} of {@code object}, or {@code null}. */
    public static String resourceVersion(JsonElement object) {
        return string(object(object, "metadata"), "resourceVersion");
    }

    /** {@code " (namespace/name at resourceVersion rv)"} with whatever is known, for messages. */
    public static String where(JsonElement object) {
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
