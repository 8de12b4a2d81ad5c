package dev.watchkeeper.internal.webhook;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.Map;

/**
 * The RFC 6902 JSON patch that turns one JSON document into another: {@code remove} and {@code add} for members
 * one side lacks, {@code replace} for values that differ. Objects are compared member by member and arrays of the
 * same length element by element; an array whose length changed is replaced whole, since element moves would need
 * a diff of sequences and the API server applies either the same way.
 */
public final class JsonPatch {

    private JsonPatch() {
    }

    /** The operations, in order, that make {@code from} equal {@code to}; empty when they are equal. */
    public static JsonArray diff(JsonElement from, JsonElement to) {
        JsonArray operations = new JsonArray();
        diff("", from, to, operations);
        return operations;
    }

    /**
     * {@code received} with the changes that turn {@code baseline} into {@code changed}: where a value is as in
     * the baseline, the received one stays (with its formatting, and members the baseline never had); where it
     * changed, the changed one is taken, and members the change removed are removed. A mutating webhook patches
     * what the API server sent, while its method changed a model that writes some values differently.
     */
    public static JsonElement rebase(JsonElement received, JsonElement baseline, JsonElement changed) {
        if (baseline.equals(changed)) {
            return received;
        }
        if (received.isJsonObject() && baseline.isJsonObject() && changed.isJsonObject()) {
            JsonObject source = received.getAsJsonObject();
            JsonObject before = baseline.getAsJsonObject();
            JsonObject after = changed.getAsJsonObject();
            JsonObject result = new JsonObject();
            for (Map.Entry<String, JsonElement> member : source.entrySet()) {
                String name = member.getKey();
                if (after.has(name)) {
                    result.add(name, before.has(name) ? rebase(member.getValue(), before.get(name), after.get(name))
                            : after.get(name));
                } else if (!before.has(name)) { // a member the model does not know
                    result.add(name, member.getValue());
                }
            }
            for (Map.Entry<String, JsonElement> member : after.entrySet()) {
                String name = member.getKey();
                if (!source.has(name) && !member.getValue().equals(before.get(name))) {
                    result.add(name, member.getValue()); // new, not a default the model writes anyway
                }
            }
            return result;
        }
        if (received.isJsonArray() && baseline.isJsonArray() && changed.isJsonArray()
                && received.getAsJsonArray().size() == baseline.getAsJsonArray().size()
                && baseline.getAsJsonArray().size() == changed.getAsJsonArray().size()) {
            JsonArray result = new JsonArray();
            for (int i = 0; i < received.getAsJsonArray().size(); i++) {
                result.add(rebase(received.getAsJsonArray().get(i), baseline.getAsJsonArray().get(i),
                        changed.getAsJsonArray().get(i)));
            }
            return result;
        }
        return changed;
    }

    private static void diff(String path, JsonElement from, JsonElement to, JsonArray operations) {
        if (from.equals(to)) {
            return;
        }
        if (from.isJsonObject() && to.isJsonObject()) {
            JsonObject source = from.getAsJsonObject();
            JsonObject target = to.getAsJsonObject();
            for (String name : source.keySet()) {
                if (!target.has(name)) {
                    operations.add(operation("remove", path + "/" + escape(name), null));
                }
            }
            for (Map.Entry<String, JsonElement> member : target.entrySet()) {
                String memberPath = path + "/" + escape(member.getKey());
                if (source.has(member.getKey())) {
                    diff(memberPath, source.get(member.getKey()), member.getValue(), operations);
                } else {
                    operations.add(operation("add", memberPath, member.getValue()));
                }
            }
        } else if (from.isJsonArray() && to.isJsonArray()
                && from.getAsJsonArray().size() == to.getAsJsonArray().size()) {
            JsonArray source = from.getAsJsonArray();
            JsonArray target = to.getAsJsonArray();
            for (int i = 0; i < source.size(); i++) {
                diff(path + "/" + i, source.get(i), target.get(i), operations);
            }
        } else {
            operations.add(operation("replace", path, to));
        }
    }

    private static JsonObject operation(String op, String path, JsonElement value) {
        JsonObject operation = new JsonObject();
        operation.addProperty("op", op);
        operation.addProperty("path", path);
        if (value != null) {
            operation.add("value", value.deepCopy());
        }
        return operation;
    }

    /** RFC 6901: {@code ~} as {@code ~0} and {@code /} as {@code ~1}, in that order. */
    static String escape(String name) {
        return name.replace("~", "~0").replace("/", "~1");
    }
}
