package dev.watchkeeper.test.apiserver;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.watchkeeper.internal.shard.ShardField;
import dev.watchkeeper.internal.shard.ShardSelector;
import dev.watchkeeper.internal.store.LabelSelector;
import java.util.HashMap;
import java.util.Map;

/**
 * Which objects a list or watch selects: a namespace ({@code null} for all), label and field selectors and a
 * shard of the hash space.
 *
 * @param labels {@code null} when the request had no label selector, so matching builds no label map
 * @param shard  {@code null} when the request had no shard selector or the server ignores it
 */
record WatchFilter(String namespace, LabelSelector labels, FieldSelector fields, ShardSelector shard) {

    /** Whether only the namespace selects: then every object of the namespace matches, and a list may count them. */
    boolean selectsByNamespaceOnly() {
        return labels == null && fields.isEmpty() && shard == null;
    }

    boolean matches(JsonObject object) {
        if (object == null) {
            return false;
        }
        JsonObject metadata = Json.object(object, "metadata");
        if (namespace != null && !namespace.equals(Json.string(metadata, "namespace"))) {
            return false;
        }
        return (labels == null || labels.matches(labelsOf(metadata))) && fields.matches(object)
                && (shard == null || shard.matches(shardKey(metadata)));
    }

    /** The value the shard hashes; a cluster-scoped object's namespace is {@code ""}, as the real server reads it. */
    private String shardKey(JsonObject metadata) {
        String value = Json.string(metadata, shard.field() == ShardField.UID ? "uid" : "namespace");
        return value == null ? "" : value;
    }

    private static Map<String, String> labelsOf(JsonObject metadata) {
        Map<String, String> labelMap = new HashMap<>();
        for (Map.Entry<String, JsonElement> label : Json.object(metadata, "labels").entrySet()) {
            labelMap.put(label.getKey(), label.getValue().isJsonNull() ? "" : label.getValue().getAsString());
        }
        return labelMap;
    }
}
