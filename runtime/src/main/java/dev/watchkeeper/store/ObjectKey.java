package dev.watchkeeper.store;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.util.Objects;

/**
 * Identifies an object within one resource: namespace (null for cluster-scoped objects) and name.
 *
 * @param namespace the namespace, or {@code null}
 * @param name      the name
 */
public record ObjectKey(String namespace, String name) implements Comparable<ObjectKey> {

    public ObjectKey {
        Objects.requireNonNull(name, "name");
        namespace = namespace == null || namespace.isEmpty() ? null : namespace;
    }

    /** The key of {@code object}; fails when it has no metadata or name. */
    public static ObjectKey of(KubernetesObject object) {
        V1ObjectMeta metadata = object.getMetadata();
        if (metadata == null || metadata.getName() == null) {
            throw new IllegalArgumentException("object has no metadata.name");
        }
        return new ObjectKey(metadata.getNamespace(), metadata.getName());
    }

    @Override
    public int compareTo(ObjectKey other) {
        int byNamespace = Objects.compare(namespace, other.namespace,
                (a, b) -> a == null ? (b == null ? 0 : -1) : b == null ? 1 : a.compareTo(b));
        return byNamespace != 0 ? byNamespace : name.compareTo(other.name);
    }

    /**
     * Equal when namespace and name are, as for any record; written out because keys are hashed and compared on
     * every store, index and queue operation, and the generated form is slow until the JIT compiles it.
     */
    @Override
    public boolean equals(Object other) {
        return this == other || other instanceof ObjectKey key && name.equals(key.name)
                && Objects.equals(namespace, key.namespace);
    }

    @Override
    public int hashCode() {
        return 31 * Objects.hashCode(namespace) + name.hashCode();
    }

    /** {@code namespace/name}, or just {@code name} for a cluster-scoped object. */
    @Override
    public String toString() {
        return namespace == null ? name : namespace + "/" + name;
    }
}
