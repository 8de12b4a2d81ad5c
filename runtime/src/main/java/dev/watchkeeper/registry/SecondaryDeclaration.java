package dev.watchkeeper.registry;

import dev.watchkeeper.reconcile.SecondaryMapper;
import io.kubernetes.client.common.KubernetesObject;
import java.util.Objects;

/**
 * A secondary resource of a controller: owned (mapped through controller ownerReferences) or watched (mapped by a
 * {@link SecondaryMapper}).
 *
 * <pre>{@code
 * SecondaryDeclaration<V1Secret> owned = SecondaryDeclaration.owned(WatcherDeclaration.of(secrets, scope));
 * }</pre>
 *
 * @param watcher the watcher to get or create
 * @param mapper  the mapper, or {@code null} for ownerReferences
 */
public record SecondaryDeclaration<S extends KubernetesObject>(WatcherDeclaration<S> watcher,
        SecondaryMapper<S> mapper) {

    public SecondaryDeclaration {
        Objects.requireNonNull(watcher, "watcher");
    }

    /** A secondary whose objects name their primary in a controller ownerReference. */
    public static <S extends KubernetesObject> SecondaryDeclaration<S> owned(WatcherDeclaration<S> watcher) {
        return new SecondaryDeclaration<>(watcher, null);
    }

    /** A secondary whose objects map to primary keys through {@code mapper}. */
    public static <S extends KubernetesObject> SecondaryDeclaration<S> watched(WatcherDeclaration<S> watcher,
            SecondaryMapper<S> mapper) {
        return new SecondaryDeclaration<>(watcher, Objects.requireNonNull(mapper, "mapper"));
    }
}
