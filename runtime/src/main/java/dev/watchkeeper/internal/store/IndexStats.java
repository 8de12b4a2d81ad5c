package dev.watchkeeper.internal.store;

/**
 * What one index of a store holds, for the watcher's state and the benchmarks.
 *
 * @param name           {@code namespace}, {@code owner}, {@code label} or a custom index's name
 * @param keys           distinct index keys (namespaces, owner uids, label pairs, custom keys)
 * @param entries        (index key, object) pairs
 * @param estimatedBytes the heap it holds beyond the keys' strings, which the objects' metadata shares; an estimate
 *                       for a 64-bit JVM with compressed references
 */
public record IndexStats(String name, int keys, long entries, long estimatedBytes) {
}
