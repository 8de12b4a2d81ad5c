package dev.watchkeeper.test.apiserver;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The field-level operations of server-side apply on JSON objects, guided by a {@link FieldSchema}: the fields an
 * object sets, what changed between two objects, merging an applied configuration and removing fields.
 */
final class ObjectFields {

    private final FieldSchema schema;

    ObjectFields(FieldSchema schema) {
        this.schema = schema;
    }

    /** What changed from {@code before} to {@code after}: every added, removed and modified field. */
    record Comparison(FieldSet added, FieldSet removed, FieldSet modified) {

        FieldSet changed() {
            return added.union(modified);
        }
    }

    /** The fields an applied configuration sets: its leaves and keyed list items (not its maps), as apply owns them. */
    FieldSet applied(JsonObject config) {
        FieldSet set = FieldSet.empty();
        appliedFields(config, "", set);
        return set;
    }

    Comparison compare(JsonObject before, JsonObject after) {
        Comparison comparison = new Comparison(FieldSet.empty(), FieldSet.empty(), FieldSet.empty());
        compareObjects(before, after, "", comparison.added(), comparison.removed(), comparison.modified());
        return comparison;
    }

    /** {@code live} with {@code config} merged in: maps merge, keyed lists and sets merge by item, the rest is replaced. */
    JsonObject merge(JsonObject live, JsonObject config) {
        return mergeObjects(live, config, "");
    }

    /** Removes the member fields of {@code fields} from {@code object}, keeping any field {@code kept} owns below. */
    void remove(JsonObject object, FieldSet fields, FieldSet kept) {
        removeFromObject(object, fields, kept, "");
    }

    // ------------------------------------------------------------ applied fields

    private void appliedFields(JsonObject object, String path, FieldSet into) {
        for (Map.Entry<String, JsonElement> entry : object.entrySet()) {
            String childPath = join(path, entry.getKey());
            FieldSet child = into.child("f:" + entry.getKey());
            JsonElement value = entry.getValue();
            if (value.isJsonObject() && !schema.atomicMap(childPath)) {
                appliedFields(value.getAsJsonObject(), childPath, child);
            } else if (value.isJsonArray() && schema.list(childPath).kind() != FieldSchema.ListType.Kind.ATOMIC) {
                items(value.getAsJsonArray(), childPath).forEach((element, item) -> {
                    FieldSet node = child.child(element).markMember();
                    if (item.isJsonObject() && granularItems(childPath)) {
                        appliedFields(item.getAsJsonObject(), childPath, node);
                    }
                });
            } else {
                child.markMember();
            }
        }
    }

    // ------------------------------------------------------------ comparison

    private void compareObjects(JsonObject before, JsonObject after, String path,
                                FieldSet added, FieldSet removed, FieldSet modified) {
        Map<String, Boolean> keys = new LinkedHashMap<>();
        before.keySet().forEach(k -> keys.put(k, true));
        after.keySet().forEach(k -> keys.put(k, true));
        for (String key : keys.keySet()) {
            compareValues(before.get(key), after.get(key), join(path, key), "f:" + key, added, removed, modified);
        }
    }

    private void compareValues(JsonElement before, JsonElement after, String path, String element,
                               FieldSet added, FieldSet removed, FieldSet modified) {
        if (before == null) {
            everything(after, path, added.child(element));
        } else if (after == null) {
            everything(before, path, removed.child(element));
        } else if (before.isJsonObject() && after.isJsonObject() && !schema.atomicMap(path)) {
            compareObjects(before.getAsJsonObject(), after.getAsJsonObject(), path,
                    added.child(element), removed.child(element), modified.child(element));
        } else if (before.isJsonArray() && after.isJsonArray()
                && schema.list(path).kind() != FieldSchema.ListType.Kind.ATOMIC) {
            Map<String, JsonElement> old = items(before.getAsJsonArray(), path);
            Map<String, JsonElement> now = items(after.getAsJsonArray(), path);
            Map<String, Boolean> all = new LinkedHashMap<>();
            old.keySet().forEach(k -> all.put(k, true));
            now.keySet().forEach(k -> all.put(k, true));
            for (String item : all.keySet()) {
                compareItems(old.get(item), now.get(item), path, item, added.child(element),
                        removed.child(element), modified.child(element));
            }
        } else if (!before.equals(after)) {
            modified.child(element).markMember();
        }
    }

    private void compareItems(JsonElement before, JsonElement after, String path, String element,
                              FieldSet added, FieldSet removed, FieldSet modified) {
        boolean granular = granularItems(path);
        if (before == null) {
            everythingOfItem(after, path, granular, added.child(element));
        } else if (after == null) {
            everythingOfItem(before, path, granular, removed.child(element));
        } else if (granular && before.isJsonObject() && after.isJsonObject()) {
            compareObjects(before.getAsJsonObject(), after.getAsJsonObject(), path,
                    added.child(element), removed.child(element), modified.child(element));
        } else if (!before.equals(after)) {
            modified.child(element).markMember();
        }
    }

    /** Every node of {@code value} (maps, items and leaves), as a comparison lists an added or removed subtree. */
    private void everything(JsonElement value, String path, FieldSet node) {
        node.markMember();
        if (value.isJsonObject() && !schema.atomicMap(path)) {
            value.getAsJsonObject().entrySet().forEach(e ->
                    everything(e.getValue(), join(path, e.getKey()), node.child("f:" + e.getKey())));
        } else if (value.isJsonArray() && schema.list(path).kind() != FieldSchema.ListType.Kind.ATOMIC) {
            boolean granular = granularItems(path);
            items(value.getAsJsonArray(), path).forEach((element, item) ->
                    everythingOfItem(item, path, granular, node.child(element)));
        }
    }

    private void everythingOfItem(JsonElement item, String path, boolean granular, FieldSet node) {
        node.markMember();
        if (granular && item.isJsonObject()) {
            item.getAsJsonObject().entrySet().forEach(e ->
                    everything(e.getValue(), join(path, e.getKey()), node.child("f:" + e.getKey())));
        }
    }

    // ------------------------------------------------------------ merge and remove

    private JsonObject mergeObjects(JsonObject live, JsonObject config, String path) {
        JsonObject result = live == null ? new JsonObject() : live.deepCopy();
        for (Map.Entry<String, JsonElement> entry : config.entrySet()) {
            String childPath = join(path, entry.getKey());
            JsonElement current = result.get(entry.getKey());
            JsonElement wanted = entry.getValue();
            if (current != null && current.isJsonObject() && wanted.isJsonObject() && !schema.atomicMap(childPath)) {
                result.add(entry.getKey(), mergeObjects(current.getAsJsonObject(), wanted.getAsJsonObject(), childPath));
            } else if (current != null && current.isJsonArray() && wanted.isJsonArray()
                    && schema.list(childPath).kind() != FieldSchema.ListType.Kind.ATOMIC) {
                result.add(entry.getKey(), mergeLists(current.getAsJsonArray(), wanted.getAsJsonArray(), childPath));
            } else {
                result.add(entry.getKey(), wanted.deepCopy());
            }
        }
        return result;
    }

    private JsonArray mergeLists(JsonArray live, JsonArray config, String path) {
        Map<String, JsonElement> merged = items(live, path);
        boolean granular = granularItems(path);
        items(config, path).forEach((element, item) -> {
            JsonElement current = merged.get(element);
            merged.put(element, granular && current != null && current.isJsonObject() && item.isJsonObject()
                    ? mergeObjects(current.getAsJsonObject(), item.getAsJsonObject(), path) : item.deepCopy());
        });
        JsonArray result = new JsonArray();
        merged.values().forEach(result::add);
        return result;
    }

    private void removeFromObject(JsonObject object, FieldSet fields, FieldSet kept, String path) {
        for (Map.Entry<String, FieldSet> entry : fields.children().entrySet()) {
            String key = entry.getKey().substring(2);
            JsonElement value = object.get(key);
            FieldSet keptBelow = kept == null ? null : kept.find(entry.getKey());
            if (value == null) {
                continue;
            }
            String childPath = join(path, key);
            if (entry.getValue().isMember() && (keptBelow == null || keptBelow.isEmpty())) {
                object.remove(key);
            } else if (value.isJsonObject()) {
                removeFromObject(value.getAsJsonObject(), entry.getValue(), keptBelow, childPath);
            } else if (value.isJsonArray()) {
                removeFromList(value.getAsJsonArray(), entry.getValue(), keptBelow, childPath);
            }
        }
    }

    private void removeFromList(JsonArray list, FieldSet fields, FieldSet kept, String path) {
        Map<String, JsonElement> items = items(list, path);
        JsonArray result = new JsonArray();
        items.forEach((element, item) -> {
            FieldSet toRemove = fields.find(element);
            FieldSet keptBelow = kept == null ? null : kept.find(element);
            if (toRemove == null) {
                result.add(item);
            } else if (!toRemove.isMember() || (keptBelow != null && !keptBelow.isEmpty())) {
                if (item.isJsonObject()) {
                    removeFromObject(item.getAsJsonObject(), toRemove, keptBelow, path);
                }
                result.add(item);
            }
        });
        while (!list.isEmpty()) {
            list.remove(0);
        }
        list.addAll(result);
    }

    // ------------------------------------------------------------ helpers

    /** Whether the items of the list at {@code path} are maps merged field by field. */
    private boolean granularItems(String path) {
        FieldSchema.ListType type = schema.list(path);
        return type.kind() == FieldSchema.ListType.Kind.MAP && !type.atomicItems();
    }

    /** The items of a set or keyed list by their path element ({@code v:"x"} or {@code k:{"name":"c"}}), in order. */
    private Map<String, JsonElement> items(JsonArray list, String path) {
        FieldSchema.ListType type = schema.list(path);
        Map<String, JsonElement> items = new LinkedHashMap<>();
        for (JsonElement item : list) {
            items.put(element(type, item), item);
        }
        return items;
    }

    private static String element(FieldSchema.ListType type, JsonElement item) {
        if (type.kind() == FieldSchema.ListType.Kind.SET || !item.isJsonObject()) {
            return "v:" + Json.GSON.toJson(item);
        }
        Map<String, JsonElement> key = new TreeMap<>();
        for (String field : type.keys()) {
            JsonElement value = item.getAsJsonObject().get(field);
            if (value != null) {
                key.put(field, value);
            }
        }
        JsonObject json = new JsonObject();
        key.forEach(json::add);
        return "k:" + Json.GSON.toJson(json);
    }

    private static String join(String path, String field) {
        return path.isEmpty() ? field : path + "." + field;
    }
}
