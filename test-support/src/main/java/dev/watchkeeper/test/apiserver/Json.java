package dev.watchkeeper.test.apiserver;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;

/** Null-tolerant Gson helpers. */
final class Json {

    /**
     * Writes JSON as kube-apiserver does as far as it matters here: no HTML escaping of {@code =} or {@code '}
     * (Go's encoder leaves them as they are; Gson's default writes {@code \u003d}, which would make every served
     * object longer than the real server's).
     */
    static final Gson GSON = new GsonBuilder().disableHtmlEscaping().create();

    private Json() {
    }

    /** The child object at {@code key}, or an empty, detached object when absent or not an object. */
    static JsonObject object(JsonObject parent, String key) {
        if (parent == null) {
            return new JsonObject();
        }
        JsonElement child = parent.get(key);
        return child != null && child.isJsonObject() ? child.getAsJsonObject() : new JsonObject();
    }

    /** The string at {@code key}, or {@code null} when absent or JSON null. */
    static String string(JsonObject parent, String key) {
        if (parent == null) {
            return null;
        }
        JsonElement child = parent.get(key);
        return child == null || child.isJsonNull() ? null : child.getAsString();
    }

    /** The child object at {@code key}, created and attached when absent. */
    static JsonObject ensureObject(JsonObject parent, String key) {
        JsonElement child = parent.get(key);
        if (child == null || !child.isJsonObject()) {
            JsonObject created = new JsonObject();
            parent.add(key, created);
            return created;
        }
        return child.getAsJsonObject();
    }

    /**
     * Parses a request body.
     *
     * @throws StatusException 400 when it is not JSON
     */
    /** Sets {@code to.member} to a copy of {@code from.member}, or removes it when {@code from} has none. */
    static void copyMember(JsonObject from, JsonObject to, String member) {
        JsonElement value = from.get(member);
        if (value == null) {
            to.remove(member);
        } else {
            to.add(member, value.deepCopy());
        }
    }

    static JsonElement parse(String body) {
        try {
            return JsonParser.parseString(body);
        } catch (JsonParseException e) {
            throw Statuses.badRequest("the request body is not valid JSON: " + e.getMessage());
        }
    }

    /**
     * Parses a request body that must be a JSON object.
     *
     * @throws StatusException 400 otherwise
     */
    static JsonObject parseObject(String body) {
        JsonElement element = parse(body);
        if (!element.isJsonObject()) {
            throw Statuses.badRequest("the request body must be a JSON object");
        }
        return element.getAsJsonObject();
    }
}
