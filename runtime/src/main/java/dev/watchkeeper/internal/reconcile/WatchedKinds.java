package dev.watchkeeper.internal.reconcile;

import dev.watchkeeper.internal.watch.WatcherGroup;
import dev.watchkeeper.resource.PartialObjectMetadata;
import dev.watchkeeper.internal.resource.ResourceType;
import dev.watchkeeper.store.ObjectKey;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * The kinds of object a reconciler's watchers deliver, its primary's first, and the version of an object each one's
 * cache holds now: which written objects will come back on a watch, and which are back already. An object matches a
 * kind by apiVersion and kind where both are known (the server's answers carry them), by apiVersion alone for a
 * dynamic or metadata-only type declared by plural, and by Java class otherwise.
 */
record WatchedKinds(List<Kind> kinds) {

    /** A watched kind and the resourceVersion its cache holds of a key ({@code null} when none). */
    record Kind(ResourceType<?> type, Function<ObjectKey, String> cachedVersion) {
    }

    /** Watches nothing. */
    static final WatchedKinds NONE = new WatchedKinds(List.of());

    WatchedKinds {
        kinds = List.copyOf(kinds);
    }

    /** The kinds of {@code groups}, the primary's first, read from their caches without decoding. */
    static WatchedKinds of(List<WatcherGroup<?>> groups) {
        return new WatchedKinds(groups.stream().map(group -> new Kind(group.type(), group::cachedVersion)).toList());
    }

    /** Kinds whose caches hold nothing: for tests of what is kept. */
    static WatchedKinds of(ResourceType<?>... types) {
        return new WatchedKinds(Arrays.stream(types).map(type -> new Kind(type, key -> null)).toList());
    }

    /** Whether a watcher of this reconciler delivers objects like {@code object}. */
    boolean includes(KubernetesObject object) {
        for (Kind kind : kinds) { // twice per write: a loop, not a stream
            if (matches(kind.type(), object)) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code object} is of the primary's kind. */
    boolean isPrimary(KubernetesObject object) {
        return !kinds.isEmpty() && matches(kinds.get(0).type(), object);
    }

    /** The version of {@code object} the cache of its kind holds now, {@code null} when none does. */
    String cachedVersion(KubernetesObject object) {
        ObjectKey key = ObjectKey.of(object);
        for (Kind kind : kinds) {
            if (matches(kind.type(), object)) {
                String version = kind.cachedVersion().apply(key);
                if (version != null) {
                    return version;
                }
            }
        }
        return null;
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
