package dev.watchkeeper.test.apiserver;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import java.util.List;

/**
 * The {@code meta.k8s.io/v1} metadata-only forms a client asks for with
 * {@code Accept: application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1} for a list and
 * {@code …;as=PartialObjectMetadata;…} for a watch or a get (as metadata-only informers do): every object, bookmarks
 * included, shown as a {@code PartialObjectMetadata} holding its metadata alone, a list as a
 * {@code PartialObjectMetadataList}.
 */
final class MetadataFormat {

    private static final String API_VERSION = "meta.k8s.io/v1";

    private MetadataFormat() {
    }

    /** Whether the request's Accept header asks for metadata only. */
    static boolean requested(HttpCall call) {
        String accept = call.exchange().getRequestHeaders().getFirst("Accept");
        return accept != null && accept.contains("as=PartialObjectMetadata") && accept.contains("g=meta.k8s.io");
    }

    /** {@code object}'s metadata as a {@code PartialObjectMetadata}. */
    static JsonObject of(JsonObject object) {
        JsonObject partial = new JsonObject();
        partial.addProperty("kind", "PartialObjectMetadata");
        partial.addProperty("apiVersion", API_VERSION);
        partial.add("metadata", Json.object(object, "metadata").deepCopy());
        return partial;
    }

    /** A {@code PartialObjectMetadataList} of {@code objects} with the list's {@code metadata}. */
    static JsonObject list(List<JsonObject> objects, JsonObject metadata) {
        JsonObject list = new JsonObject();
        list.addProperty("kind", "PartialObjectMetadataList");
        list.addProperty("apiVersion", API_VERSION);
        list.add("metadata", metadata);
        JsonArray items = new JsonArray();
        objects.forEach(object -> items.add(of(object)));
        list.add("items", items);
        return list;
    }
}
