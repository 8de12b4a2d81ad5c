package dev.watchkeeper.store;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A read-only, thread-safe cache of one watcher's objects, keyed by namespace/name.
 *
 * <pre>{@code
 * store.awaitReady(Duration.ofSeconds(30));
 * Optional<V1ConfigMap> config = store.get("default", "app-config");
 * List<V1ConfigMap> web = store.list("app=web");
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

    /** The cached objects whose labels match {@code labelSelector} (see {@link LabelSelector}). */
    List<T> list(String labelSelector);

    /** The cached objects in {@code namespace}. */
    List<T> listInNamespace(String namespace);

    /** How many objects are cached. */
    int size();

    /** Completes on the first complete initial list; never completes exceptionally. */
    CompletableFuture<Void> ready();

    /** Waits until {@link #ready()}; returns whether it became ready within {@code timeout}. */
    boolean awaitReady(Duration timeout) throws InterruptedException;
}
