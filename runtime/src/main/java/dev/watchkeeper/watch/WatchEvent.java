package dev.watchkeeper.watch;

import java.util.Objects;

/**
 * What a {@link Watcher} reports: the start and end of an initial list, each object of it, each change
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

    /** One object of the initial list, or of the initial events of a streaming list. */
    record InitApply<T>(T object) implements WatchEvent<T> {
        public InitApply {
            Objects.requireNonNull(object, "object");
        }
    }

    /** The initial list is complete; a store may now be trusted. */
    record InitDone<T>() implements WatchEvent<T> {
    }

    /** An object was added or modified during the watch. */
    record Apply<T>(T object) implements WatchEvent<T> {
        public Apply {
            Objects.requireNonNull(object, "object");
        }
    }

    /**
     * An object was deleted. During the watch it carries the object's last state as the server sent it. With
     * {@code finalStateUnknown} it is an object a relist no longer found (deleted while the watch was down,
     * client-go's {@code DeletedFinalStateUnknown}), carrying the last state the store held; such deletes come after
     * the relist's {@code InitApply} events and before its {@code InitDone}.
     */
    record Delete<T>(T object, boolean finalStateUnknown) implements WatchEvent<T> {
        public Delete {
            Objects.requireNonNull(object, "object");
        }

        /** A delete the watch reported, with the object's final state. */
        public Delete(T object) {
            this(object, false);
        }
    }

    /** Something went wrong; the watcher recovers by itself (backing off where the error calls for it). */
    record Failure<T>(WatchError error) implements WatchEvent<T> {
        public Failure {
            Objects.requireNonNull(error, "error");
        }
    }
}
