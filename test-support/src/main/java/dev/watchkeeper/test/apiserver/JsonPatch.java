package dev.watchkeeper.test.apiserver;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

import java.util.ArrayList;
import java.util.List;

/** RFC 6902 JSON patch: add, remove, replace, test, move and copy over RFC 6901 pointers. */
final class JsonPatch {

    private JsonPatch() {
    }

    /**
     * Returns the patched copy of {@code target}.
     *
     * @throws StatusException 422 Invalid when an operation fails (missing path, failed test)
     */
    static JsonObject apply(JsonObject target, JsonElement patch) {
        if (!patch.isJsonArray()) {
            throw Statuses.badRequest("a json patch must be a JSON array of operations");
        }
        JsonElement result = target.deepCopy();
        for (JsonElement element : patch.getAsJsonArray()) {
            JsonObject op = element.getAsJsonObject();
            String path = Json.string(op, "path");
            String name = Json.string(op, "op");
            if (path == null || name == null) {
                throw invalid("each operation needs \"op\" and \"path\"");
            }
            switch (name) {
                case "add" -> result = add(result, path, value(op));
                case "remove" -> remove(result, path);
                case "replace" -> {
                    // As on a real API server, replacing a missing object member adds it (RFC 6902 would refuse).
                    if (!isMissingMember(result, path)) {
                        remove(result, path);
                    }
                    result = add(result, path, value(op));
                }
                case "test" -> {
                    if (!get(result, path).equals(value(op))) {
                        throw invalid("testing value " + path + " failed");
                    }
                }
                case "move" -> {
                    JsonElement moved = get(result, from(op));
                    remove(result, from(op));
                    result = add(result, path, moved);
                }
                case "copy" -> result = add(result, path, get(result, from(op)).deepCopy());
                default -> throw invalid("unsupported operation \"" + name + "\"");
            }
        }
        if (!result.isJsonObject()) {
            throw invalid("the patched document is not an object");
        }
        return result.getAsJsonObject();
    }

    private static JsonElement value(JsonObject op) {
        if (!op.has("value")) {
            throw invalid("operation \"" + Json.string(op, "op") + "\" needs a \"value\"");
        }
        return op.get("value").deepCopy();
    }

    private static String from(JsonObject op) {
        String from = Json.string(op, "from");
        if (from == null) {
            throw invalid("operation \"" + Json.string(op, "op") + "\" needs \"from\"");
        }
        return from;
    }

    private static JsonElement add(JsonElement root, String path, JsonElement value) {
        List<String> tokens = tokens(path);
        if (tokens.isEmpty()) {
            return value;
        }
        JsonElement parent = resolve(root, tokens.subList(0, tokens.size() - 1), path);
        String last = tokens.get(tokens.size() - 1);
        if (parent.isJsonObject()) {
            parent.getAsJsonObject().add(last, value);
        } else if (parent.isJsonArray()) {
            JsonArray array = parent.getAsJsonArray();
            int index = last.equals("-") ? array.size() : index(last, array.size() + 1, path);
            List<JsonElement> items = new ArrayList<>();
            array.forEach(items::add);
            items.add(index, value);
            replaceAll(array, items);
        } else {
            throw invalid("cannot add at " + path);
        }
        return root;
    }

    private static void remove(JsonElement root, String path) {
        List<String> tokens = tokens(path);
        if (tokens.isEmpty()) {
            throw invalid("cannot remove the whole document");
        }
        JsonElement parent = resolve(root, tokens.subList(0, tokens.size() - 1), path);
        String last = tokens.get(tokens.size() - 1);
        if (parent.isJsonObject() && parent.getAsJsonObject().has(last)) {
            parent.getAsJsonObject().remove(last);
        } else if (parent.isJsonArray()) {
            parent.getAsJsonArray().remove(index(last, parent.getAsJsonArray().size(), path));
        } else {
            throw invalid("unable to remove nonexistent key: " + path);
        }
    }

    private static boolean isMissingMember(JsonElement root, String path) {
        List<String> tokens = tokens(path);
        if (tokens.isEmpty()) {
            return false;
        }
        JsonElement parent = resolve(root, tokens.subList(0, tokens.size() - 1), path);
        return parent.isJsonObject() && !parent.getAsJsonObject().has(tokens.get(tokens.size() - 1));
    }

    private static JsonElement get(JsonElement root, String path) {
        return resolve(root, tokens(path), path);
    }

    private static JsonElement resolve(JsonElement root, List<String> tokens, String path) {
        JsonElement current = root;
        for (String token : tokens) {
            if (current.isJsonObject() && current.getAsJsonObject().has(token)) {
                current = current.getAsJsonObject().get(token);
            } else if (current.isJsonArray()) {
                current = current.getAsJsonArray().get(index(token, current.getAsJsonArray().size(), path));
            } else {
                throw invalid("doc is missing path: " + path);
            }
        }
        return current;
    }

    private static List<String> tokens(String path) {
        List<String> tokens = new ArrayList<>();
        if (path.isEmpty()) {
            return tokens;
        }
        if (!path.startsWith("/")) {
            throw invalid("invalid JSON pointer: " + path);
        }
        for (String raw : path.substring(1).split("/", -1)) {
            tokens.add(raw.replace("~1", "/").replace("~0", "~"));
        }
        return tokens;
    }

    private static int index(String token, int bound, String path) {
        try {
            int index = Integer.parseInt(token);
            if (index >= 0 && index < bound) {
                return index;
            }
        } catch (NumberFormatException e) {
            throw invalid("invalid array index \"" + token + "\" in " + path);
        }
        throw invalid("array index out of bounds in " + path);
    }

    private static void replaceAll(JsonArray array, List<JsonElement> items) {
        while (array.size() > 0) {
            array.remove(array.size() - 1);
        }
        items.forEach(array::add);
    }

    private static StatusException invalid(String message) {
        return new StatusException(StatusException.Reason.INVALID, "the json patch could not be applied: " + message);
    }
}
