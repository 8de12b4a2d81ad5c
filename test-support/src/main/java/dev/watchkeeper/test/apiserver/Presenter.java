package dev.watchkeeper.test.apiserver;

import com.google.gson.JsonObject;

/** Shows a stored object at the version a request asked for. */
final class Presenter {

    private Presenter() {
    }

    /** The object itself when its apiVersion is the resource's, else a copy carrying the resource's apiVersion. */
    static JsonObject atVersion(ApiResource resource, JsonObject object) {
        if (resource.apiVersion().equals(Json.string(object, "apiVersion"))) {
            return object;
        }
        JsonObject copy = object.deepCopy();
        copy.addProperty("apiVersion", resource.apiVersion());
        return copy;
    }
}
