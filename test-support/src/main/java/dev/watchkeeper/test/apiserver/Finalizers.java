package dev.watchkeeper.test.apiserver;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/** {@code metadata.finalizers}: reading, writing, and the rule that an object being deleted gets no new ones. */
final class Finalizers {

    /** Added by a DELETE with propagationPolicy Orphan: the garbage collector orphans the dependents first. */
    static final String ORPHAN = "orphan";
    /** Added by a DELETE with propagationPolicy Foreground: the garbage collector deletes the dependents first. */
    static final String FOREGROUND = "foregroundDeletion";

    private Finalizers() {
    }

    /** A mutable copy of the object's finalizers. */
    static List<String> of(JsonObject object) {
        List<String> finalizers = new ArrayList<>();
        JsonElement list = Json.object(object, "metadata").get("finalizers");
        if (list != null && list.isJsonArray()) {
            list.getAsJsonArray().forEach(f -> finalizers.add(f.getAsString()));
        }
        return finalizers;
    }

    /** Sets the finalizers, removing the field when there are none. */
    static void set(JsonObject object, List<String> finalizers) {
        JsonObject metadata = Json.ensureObject(object, "metadata");
        if (finalizers.isEmpty()) {
            metadata.remove("finalizers");
            return;
        }
        JsonArray array = new JsonArray();
        finalizers.forEach(array::add);
        metadata.add("finalizers", array);
    }

    /**
     * @throws StatusException 422 Invalid, as the real server answers, when {@code next} adds a finalizer to an
     *                         object being deleted
     */
    static void checkNoneAdded(ApiResource resource, JsonObject current, JsonObject next) {
        if (!Json.object(current, "metadata").has("deletionTimestamp")) {
            return;
        }
        List<String> added = of(next);
        added.removeAll(of(current));
        if (!added.isEmpty()) {
            String goList = added.stream().map(f -> "\"" + f + "\"").collect(Collectors.joining(", ", "[]string{", "}"));
            throw Statuses.fieldForbidden(resource, Json.string(Json.object(current, "metadata"), "name"),
                    "metadata.finalizers",
                    "no new finalizers can be added if the object is being deleted, found new finalizers " + goList);
        }
    }
}
