package dev.watchkeeper.internal.registry;

import dev.watchkeeper.reconcile.SecondaryMapper;
import io.kubernetes.client.common.KubernetesObject;
import java.util.Objects;

/**
 * A secondary resource of a controller: owned (mapped through controller ownerReferences) or watched (mapped by a
 * {@link SecondaryMapper}).
 *
 * <pre>{@code
 * SecondaryDeclaration<V1Secret> owned = SecondaryDeclaration.owned(WatcherSpec.of(secrets, scope));
 * }</pre>
 *
 * @param watcher    the watcher to get or create
 * @param mapper     the mapper, or {@code null} for ownerReferences
 * @param whenServed whether the reconciler starts without it while the server does not serve its type
 */
public record SecondaryDeclaration<S extends KubernetesObject>(WatcherSpec<S> watcher,
        SecondaryMapper<S> mapper, boolean whenServed) {

    public SecondaryDeclaration {
        Objects.requireNonNull(watcher, "watcher");
        if (whenServed && mapper != null) {
            throw new IllegalArgumentException("only an owned secondary can wait for its type to be served");
        }
    }

    /** A secondary the reconciler needs from the start. */
    public SecondaryDeclaration(WatcherSpec<S> watcher, SecondaryMapper<S> mapper) {
        this(watcher, mapper, false);
    }

    /** A secondary whose objects name their primary in a controller ownerReference. */
    public static <S extends KubernetesObject> SecondaryDeclaration<S> owned(WatcherSpec<S> watcher) {
        return new SecondaryDeclaration<>(watcher, null);
    }

    /**
     * An owned secondary of a type the server may not serve yet: the reconciler and readiness do not wait for it,
     * and a dependent of its type is inactive until it is served.
     */
    public static <S extends KubernetesObject> SecondaryDeclaration<S> ownedWhenServed(WatcherSpec<S> watcher) {
        return new SecondaryDeclaration<>(watcher, null, true);
    }

    /** A secondary whose objects map to primary keys through {@code mapper}. */
    public static <S extends KubernetesObject> SecondaryDeclaration<S> watched(WatcherSpec<S> watcher,
            SecondaryMapper<S> mapper) {
        return new SecondaryDeclaration<>(watcher, Objects.requireNonNull(mapper, "mapper"));
    }
}
