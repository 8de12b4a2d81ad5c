package dev.watchkeeper.store;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A read-only, thread-safe cache of one watcher's objects, keyed by namespace/name. Lookups by namespace, controller
 * owner, label and custom {@link Indexer index} are served by indexes (docs/semantics.md §8): they cost what they
 * return, not what the store holds, and decode only the objects they return.
 *
 * <pre>{@code
 * store.awaitReady(Duration.ofSeconds(30));
 * Optional<V1ConfigMap> config = store.get("default", "app-config");
 * List<V1ConfigMap> web = store.list("app=web");
 * List<V1ConfigMap> children = store.listByOwner(generator.getMetadata().getUid());
 * }</pre>
 */
public interface Store<T> {

    /** The object with this key, if cached. */
    Optional<T> get(ObjectKey key);

    /** The object {@code namespace/name} ({@code namespace} null for cluster-scoped objects), if cached. */
    default Optional<T> get(String namespace, String name) {
        return get(new ObjectKey(namespace, name));
    }

    /** Every cached object, ordered by namespace and name. */
    List<T> list();

    /** The cached objects whose labels match {@code labelSelector} (see {@code LabelSelector}). */
    List<T> list(String labelSelector);

    /** The cached objects in {@code namespace} ({@code null} for cluster-scoped objects), ordered by name. */
    List<T> listInNamespace(String namespace);

    /**
     * The cached objects whose controller owner (the ownerReference with {@code controller: true}) has the uid
     * {@code ownerUid}, ordered by namespace and name.
     */
    List<T> listByOwner(String ownerUid);

    /** The cached objects with the label {@code key=value}, ordered by namespace and name. */
    List<T> listByLabel(String key, String value);

    /**
     * The cached objects that the custom index {@code index} (declared with
     * {@code WatcherSpec.index}) files under {@code key}, ordered by namespace and name.
     *
     * @throws IllegalArgumentException when the store has no index of that name
     */
    List<T> listByIndex(String index, String key);

    /** How many objects are cached. */
    int size();

    /** Completes on the first complete initial list; never completes exceptionally. */
    CompletableFuture<Void> ready();

    /** Waits until {@link #ready()}; returns whether it became ready within {@code timeout}. */
    boolean awaitReady(Duration timeout) throws InterruptedException;
}
