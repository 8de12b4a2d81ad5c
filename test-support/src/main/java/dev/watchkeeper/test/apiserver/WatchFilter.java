package dev.watchkeeper.test.apiserver;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.watchkeeper.store.LabelSelector;
import java.util.HashMap;
import java.util.Map;

/**
 * Which objects a list or watch selects: a namespace ({@code null} for all) and label and field selectors.
 *
 * @param labels {@code null} when the request had no label selector, so matching builds no label map
 */
record WatchFilter(String namespace, LabelSelector labels, FieldSelector fields) {

    /** Whether only the namespace selects: then every object of the namespace matches, and a list may count them. */
    boolean selectsByNamespaceOnly() {
        return labels == null && fields.isEmpty();
    }

    boolean matches(JsonObject object) {
        if (object == null) {
            return false;
        }
        JsonObject metadata = Json.object(object, "metadata");
        if (namespace != null && !namespace.equals(Json.string(metadata, "namespace"))) {
            return false;
        }
        return (labels == null || labels.matches(labelsOf(metadata))) && fields.matches(object);
    }

    private static Map<String, String> labelsOf(JsonObject metadata) {
        Map<String, String> labelMap = new HashMap<>();
        for (Map.Entry<String, JsonElement> label : Json.object(metadata, "labels").entrySet()) {
            labelMap.put(label.getKey(), label.getValue().isJsonNull() ? "" : label.getValue().getAsString());
        }
        return labelMap;
    }
}
