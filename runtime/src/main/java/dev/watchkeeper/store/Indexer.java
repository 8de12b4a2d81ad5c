package dev.watchkeeper.store;

import java.util.Collection;
import java.util.Objects;
import java.util.function.Function;

/**
 * A custom index of a store: a name and the function giving an object's keys in it, so that
 * {@link Store#listByIndex(String, String) listByIndex(name, key)} finds the objects with that key without scanning.
 * The function runs on the watcher's thread for each object that arrives (decoding it there) and again on a reader's
 * thread for each object a lookup returns; it must depend on the object alone and must not change it.
 *
 * <pre>{@code
 * Indexer<V1Pod> byNode = new Indexer<>("node", pod -> List.of(pod.getSpec().getNodeName()));
 * }</pre>
 *
 * @param name the index's name, unique per store ({@code namespace}, {@code owner} and {@code label} are built in)
 * @param keys the object's keys in the index; none ({@code null} or empty) leaves it out
 * @param <T>  the model the store holds
 */
public record Indexer<T>(String name, Function<? super T, ? extends Collection<String>> keys) {

    public Indexer {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(keys, "keys");
        if (name.isBlank()) {
            throw new IllegalArgumentException("an index needs a name");
        }
    }
}
