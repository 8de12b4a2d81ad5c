package dev.watchkeeper.reconcile;

import dev.watchkeeper.store.ObjectKey;
import java.util.Collection;

/**
 * Maps a change of a secondary object to the keys of the primary objects to reconcile, for watched resources that
 * are not owned through a controller ownerReference (those are mapped without one).
 *
 * <pre>{@code
 * SecondaryMapper<V1Secret> bySecret = secret -> generatorStore.list().stream()
 *         .filter(g -> secret.getMetadata().getName().equals(g.getSpec().getSecretName()))
 *         .map(ObjectKey::of)
 *         .toList();
 * }</pre>
 *
 * Called on the secondary watcher's thread: keep it quick and read caches, not the API.
 */
@FunctionalInterface
public interface SecondaryMapper<S> {

    Collection<ObjectKey> map(S object);
}
