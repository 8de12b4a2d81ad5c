package dev.watchkeeper.test.apiserver;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.watchkeeper.store.LabelSelector;
import java.util.HashMap;
import java.util.Map;

/** Which objects a list or watch selects: a namespace ({@code null} for all) and label and field selectors. */
record WatchFilter(String namespace, LabelSelector labels, FieldSelector fields) {

    boolean matches(JsonObject object) {
        if (object == null) {
            return false;
        }
        JsonObject metadata = Json.object(object, "metadata");
        if (namespace != null && !namespace.equals(Json.string(metadata, "namespace"))) {
            return false;
        }
        Map<String, String> labelMap = new HashMap<>();
        for (Map.Entry<String, JsonElement> label : Json.object(metadata, "labels").entrySet()) {
            labelMap.put(label.getKey(), label.getValue().isJsonNull() ? "" : label.getValue().getAsString());
        }
        return labels.matches(labelMap) && fields.matches(object);
    }
}
