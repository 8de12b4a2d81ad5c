package dev.watchkeeper.test.apiserver;

import com.google.gson.JsonObject;

import java.util.Comparator;

/** Where an object is stored within its resource: namespace ({@code ""} when cluster-scoped) and name. */
record StoredKey(String namespace, String name) implements Comparable<StoredKey> {

    private static final Comparator<StoredKey> ORDER =
            Comparator.comparing(StoredKey::namespace).thenComparing(StoredKey::name);

    StoredKey {
        namespace = namespace == null ? "" : namespace;
    }

    /** The key of a stored object, read from its metadata. */
    static StoredKey of(JsonObject object) {
        JsonObject metadata = Json.object(object, "metadata");
        return new StoredKey(Json.string(metadata, "namespace"), Json.string(metadata, "name"));
    }

    @Override
    public int compareTo(StoredKey other) {
        return ORDER.compare(this, other);
    }
}
