package dev.watchkeeper.test.apiserver;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The subset of Kubernetes' strategic merge patch that kubectl's generated patches use, applied without the
 * server's knowledge of merge keys: a JSON merge patch ({@link MergePatch}) whose lists are replaced, except the
 * lists the patch itself marks as merged, as kubectl marks every list it merges ({@code kubectl edit},
 * {@code apply}, {@code label}, {@code set}):
 * <ul>
 *   <li>{@code $setElementOrder/<list>}: the list merges; its entries name the merge key ({@code [{"name":"a"}]})
 *       or, for a list of scalars, are the values; the result follows that order, other elements after them;</li>
 *   <li>an element {@code {"<key>":"x","$patch":"delete"}} removes element {@code x};
 *       {@code $deleteFromPrimitiveList/<list>} removes scalars; an element {@code {"$patch":"replace"}} makes the
 *       other elements the whole list;</li>
 *   <li>{@code "$patch":"replace"} in an object replaces it, {@code "$patch":"delete"} removes it.</li>
 * </ul>
 * Not supported: merging a list the patch does not mark (a hand-written patch of {@code containers} without
 * {@code $setElementOrder} replaces the list, where the real server merges by name), and {@code $retainKeys},
 * which is ignored.
 */
final class StrategicMergePatch {

    private static final String ORDER = "$setElementOrder/";
    private static final String DELETE_SCALARS = "$deleteFromPrimitiveList/";
    private static final String PATCH = "$patch";

    private StrategicMergePatch() {
    }

    /** Returns the patched copy of {@code target}; neither argument is modified. */
    static JsonObject apply(JsonObject target, JsonObject patch) {
        JsonElement rewritten = resolveLists(target, patch);
        return rewritten.isJsonNull() ? new JsonObject()
                : MergePatch.apply(target, rewritten, true).getAsJsonObject();
    }

    /**
     * The patch as a plain merge patch against {@code target}: merged lists resolved to their result,
     * {@code $patch} directives on objects turned into nulls; JSON null when the object is to be deleted.
     */
    private static JsonElement resolveLists(JsonObject target, JsonObject patch) {
        String directive = Json.string(patch, PATCH);
        if ("delete".equals(directive)) {
            return JsonNull.INSTANCE;
        }
        JsonObject current = target == null ? new JsonObject() : target;
        JsonObject resolved = new JsonObject();
        if ("replace".equals(directive)) {
            current.keySet().stream().filter(key -> !patch.has(key)).forEach(key -> resolved.add(key, JsonNull.INSTANCE));
        }
        for (Map.Entry<String, JsonElement> entry : patch.entrySet()) {
            String key = entry.getKey();
            JsonElement value = entry.getValue();
            String listKey = key.startsWith(ORDER) ? key.substring(ORDER.length())
                    : key.startsWith(DELETE_SCALARS) ? key.substring(DELETE_SCALARS.length()) : null;
            if (listKey != null) {
                if (!patch.has(listKey)) {
                    resolved.add(listKey, mergeList(current.get(listKey), new JsonArray(), patch, listKey));
                }
            } else if (key.startsWith("$")) {
                continue;
            } else if (value.isJsonObject()) {
                JsonElement currentValue = current.get(key);
                resolved.add(key, resolveLists(currentValue != null && currentValue.isJsonObject()
                        ? currentValue.getAsJsonObject() : null, value.getAsJsonObject()));
            } else if (value.isJsonArray() && marksMerge(patch, key, value.getAsJsonArray())) {
                resolved.add(key, mergeList(current.get(key), value.getAsJsonArray(), patch, key));
            } else {
                resolved.add(key, value);
            }
        }
        return resolved;
    }

    private static boolean marksMerge(JsonObject patch, String key, JsonArray list) {
        if (patch.has(ORDER + key) || patch.has(DELETE_SCALARS + key)) {
            return true;
        }
        for (JsonElement element : list) {
            if (element.isJsonObject() && element.getAsJsonObject().has(PATCH)) {
                return true;
            }
        }
        return false;
    }

    private static JsonArray mergeList(JsonElement currentList, JsonArray patchList, JsonObject patch, String key) {
        List<JsonElement> result = new ArrayList<>();
        if (currentList != null && currentList.isJsonArray()) {
            currentList.getAsJsonArray().forEach(element -> result.add(element.deepCopy()));
        }
        JsonArray order = patch.has(ORDER + key) ? patch.getAsJsonArray(ORDER + key) : null;
        String mergeKey = mergeKey(order, patchList);
        for (JsonElement element : patchList) {
            JsonObject object = element.isJsonObject() ? element.getAsJsonObject() : null;
            if (object != null && "replace".equals(Json.string(object, PATCH))) {
                result.clear();
            } else if (object != null && mergeKey != null) {
                int index = indexOf(result, mergeKey, object.get(mergeKey));
                if ("delete".equals(Json.string(object, PATCH))) {
                    if (index >= 0) {
                        result.remove(index);
                    }
                } else if (index >= 0) {
                    result.set(index, apply(result.get(index).getAsJsonObject(), object));
                } else {
                    result.add(apply(new JsonObject(), object));
                }
            } else if (object == null && !result.contains(element)) {
                result.add(element.deepCopy());
            } else if (object != null) {
                result.add(element.deepCopy());
            }
        }
        if (patch.has(DELETE_SCALARS + key)) {
            patch.getAsJsonArray(DELETE_SCALARS + key).forEach(result::remove);
        }
        return ordered(result, order, mergeKey);
    }

    /** The merge key a list's directives name, or {@code null} for a list of scalars. */
    private static String mergeKey(JsonArray order, JsonArray patchList) {
        if (order != null) {
            for (JsonElement element : order) {
                if (element.isJsonObject() && element.getAsJsonObject().size() == 1) {
                    return element.getAsJsonObject().keySet().iterator().next();
                }
            }
        }
        for (JsonElement element : patchList) {
            if (element.isJsonObject() && "delete".equals(Json.string(element.getAsJsonObject(), PATCH))) {
                return element.getAsJsonObject().keySet().stream().filter(k -> !k.equals(PATCH)).findFirst()
                        .orElse(null);
            }
        }
        return null;
    }

    private static JsonArray ordered(List<JsonElement> elements, JsonArray order, String mergeKey) {
        JsonArray result = new JsonArray();
        List<JsonElement> rest = new ArrayList<>(elements);
        if (order != null) {
            for (JsonElement wanted : order) {
                JsonElement value = mergeKey == null ? wanted : wanted.getAsJsonObject().get(mergeKey);
                int index = mergeKey == null ? rest.indexOf(value) : indexOf(rest, mergeKey, value);
                if (index >= 0) {
                    result.add(rest.remove(index));
                }
            }
        }
        rest.forEach(result::add);
        return result;
    }

    private static int indexOf(List<JsonElement> elements, String mergeKey, JsonElement value) {
        for (int i = 0; i < elements.size(); i++) {
            JsonElement element = elements.get(i);
            if (element.isJsonObject() && value != null && value.equals(element.getAsJsonObject().get(mergeKey))) {
                return i;
            }
        }
        return -1;
    }
}
