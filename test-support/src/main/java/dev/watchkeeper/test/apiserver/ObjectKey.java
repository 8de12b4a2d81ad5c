package dev.watchkeeper.test.apiserver;

import java.util.Comparator;

/** Where an object is stored within its resource: namespace ({@code ""} when cluster-scoped) and name. */
record ObjectKey(String namespace, String name) implements Comparable<ObjectKey> {

    private static final Comparator<ObjectKey> ORDER =
            Comparator.comparing(ObjectKey::namespace).thenComparing(ObjectKey::name);

    ObjectKey {
        namespace = namespace == null ? "" : namespace;
    }

    @Override
    public int compareTo(ObjectKey other) {
        return ORDER.compare(this, other);
    }
}
