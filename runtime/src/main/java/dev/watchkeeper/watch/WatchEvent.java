package dev.watchkeeper.watch;

import dev.watchkeeper.store.CachedObject;
import io.kubernetes.client.common.KubernetesObject;
import java.util.Objects;

/**
 * What a watcher reports: the start and end of an initial list, each object of it, each change
 * during the watch, and each error (docs/semantics.md §1).
 *
 * <pre>{@code
 * switch (event) {
 *   case WatchEvent.Init<V1ConfigMap> init -> log.info("relisting");
 *   case WatchEvent.Apply<V1ConfigMap> apply -> cache.put(apply.object());
 *   default -> {}
 * }
 * }</pre>
 *
 * @param <T> the Kubernetes object type
 */
public sealed interface WatchEvent<T> {

    /** A (re)list is starting, in list-watch and streaming mode alike. */
    record Init<T>() implements WatchEvent<T> {
    }

    /**
     * One object of the initial list, or of the initial events of a streaming list.
     *
     * @param cached the object as cached: its metadata, and its model decoded on first use
     */
    record InitApply<T>(CachedObject<T> cached) implements WatchEvent<T> {
        public InitApply {
            Objects.requireNonNull(cached, "cached");
        }

        /** An event of an object already decoded. */
        public InitApply(T object) {
            this(cachedOf(object));
        }

        /** The object's model (decoded now if nobody has yet). */
        public T object() {
            return cached.object();
        }
    }

    /** The initial list is complete; a store may now be trusted. */
    record InitDone<T>() implements WatchEvent<T> {
    }

    /**
     * An object was added or modified during the watch.
     *
     * @param cached the object as cached: its metadata, and its model decoded on first use
     */
    record Apply<T>(CachedObject<T> cached) implements WatchEvent<T> {
        public Apply {
            Objects.requireNonNull(cached, "cached");
        }

        /** An event of an object already decoded. */
        public Apply(T object) {
            this(cachedOf(object));
        }

        /** The object's model (decoded now if nobody has yet). */
        public T object() {
            return cached.object();
        }
    }

    /**
     * An object was deleted. During the watch it carries the object's last state as the server sent it. With
     * {@code finalStateUnknown} it is an object a relist no longer found (deleted while the watch was down,
     * client-go's {@code DeletedFinalStateUnknown}), carrying the last state the store held; such deletes come after
     * the relist's {@code InitApply} events and before its {@code InitDone}.
     */
    record Delete<T>(CachedObject<T> cached, boolean finalStateUnknown) implements WatchEvent<T> {
        public Delete {
            Objects.requireNonNull(cached, "cached");
        }

        /** A delete of an object already decoded. */
        public Delete(T object, boolean finalStateUnknown) {
            this(cachedOf(object), finalStateUnknown);
        }

        /** A delete the watch reported, with the object's final state. */
        public Delete(T object) {
            this(cachedOf(object), false);
        }

        /** The object's model (decoded now if nobody has yet). */
        public T object() {
            return cached.object();
        }
    }

    /**
     * The one way an event is made from a model: every object event carries a {@link CachedObject}, and a model
     * handed in by a test or an adapter must be a Kubernetes object for its metadata to be read.
     */
    @SuppressWarnings("unchecked")
    private static <T> CachedObject<T> cachedOf(T object) {
        if (!(Objects.requireNonNull(object, "object") instanceof KubernetesObject kubernetesObject)) {
            throw new IllegalArgumentException("not a Kubernetes object: " + object.getClass().getName());
        }
        return (CachedObject<T>) CachedObject.of(kubernetesObject);
    }

    /** Something went wrong; the watcher recovers by itself (backing off where the error calls for it). */
    record Failure<T>(WatchError error) implements WatchEvent<T> {
        public Failure {
            Objects.requireNonNull(error, "error");
        }
    }
}
