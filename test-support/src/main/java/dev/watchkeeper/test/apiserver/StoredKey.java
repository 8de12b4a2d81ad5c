package dev.watchkeeper.test.apiserver;

import java.util.Comparator;

/** Where an object is stored within its resource: namespace ({@code ""} when cluster-scoped) and name. */
record StoredKey(String namespace, String name) implements Comparable<StoredKey> {

    private static final Comparator<StoredKey> ORDER =
            Comparator.comparing(StoredKey::namespace).thenComparing(StoredKey::name);

    StoredKey {
        namespace = namespace == null ? "" : namespace;
    }

    @Override
    public int compareTo(StoredKey other) {
        return ORDER.compare(this, other);
    }
}
