package dev.watchkeeper.internal.reconcile;

import dev.watchkeeper.resource.PartialObjectMetadata;
import dev.watchkeeper.resource.ResourceType;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import java.util.List;

/**
 * The kinds of object a reconciler's watchers deliver, its primary's first: which written objects will come back on
 * a watch. An object matches a type by apiVersion and kind where both are known (the server's answers carry them),
 * by apiVersion alone for a dynamic or metadata-only type declared by plural, and by Java class otherwise.
 */
record WatchedKinds(List<ResourceType<?>> types) {

    /** Watches nothing. */
    static final WatchedKinds NONE = new WatchedKinds(List.of());

    WatchedKinds {
        types = List.copyOf(types);
    }

    /** Whether a watcher of this reconciler delivers objects like {@code object}. */
    boolean includes(KubernetesObject object) {
        return types.stream().anyMatch(type -> matches(type, object));
    }

    /** Whether {@code object} is of the primary's kind. */
    boolean isPrimary(KubernetesObject object) {
        return !types.isEmpty() && matches(types.get(0), object);
    }

    private static boolean matches(ResourceType<?> type, KubernetesObject object) {
        String apiVersion = object.getApiVersion();
        String kind = object.getKind();
        if (type.kind() != null && kind != null) {
            return type.kind().equals(kind) && type.apiVersion().equals(apiVersion);
        }
        Class<?> javaType = type.javaType();
        if (javaType == DynamicKubernetesObject.class || PartialObjectMetadata.class.isAssignableFrom(javaType)) {
            return type.apiVersion().equals(apiVersion);
        }
        return javaType.isInstance(object);
    }
}
