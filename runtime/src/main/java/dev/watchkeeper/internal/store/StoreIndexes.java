package dev.watchkeeper.internal.store;

import dev.watchkeeper.store.CachedObject;
import dev.watchkeeper.store.Indexer;
import dev.watchkeeper.store.ObjectKey;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The indexes of a {@link CacheStore}: built in by namespace, by controller owner uid and by label, read from an
 * object's metadata without decoding it, and the custom ones of {@link Indexer}s, which decode. They map index keys
 * to {@link ObjectKey}s only ({@link Postings}); a lookup resolves those through the store's map and checks the
 * object it finds still matches, so a reader racing the writer never gets an object the store does not hold or one
 * that does not match. One thread writes ({@link #update}, {@link #add}, {@link #build}), under the store's write lock.
 *
 * <p>A built-in index is built on its first lookup ({@link #build}) and maintained from then on: a store pays for the
 * lookups its readers make (about 40 B per object for the namespace index, 32 B for the owner index and 32 B and more
 * per label for the label index), not for all three.
 */
final class StoreIndexes<T> {

    static final String NAMESPACE = "namespace";
    static final String OWNER = "owner";
    static final String LABEL = "label";

    private static final Logger log = LoggerFactory.getLogger(CacheStore.class);
    /** The namespace key of cluster-scoped objects; no namespace is empty ({@link ObjectKey} makes it null). */
    private static final String CLUSTER = "";
    /** A label key's map entry and its {@link Postings} before any key (see {@link Postings} for the numbers). */
    private static final int LABEL_KEY_BYTES = 40 + 32 + 64 + 80;

    /** What a lookup reads: the candidates' keys, and what the object now held under each must satisfy. */
    record Lookup<T>(List<ObjectKey> candidates, Predicate<CachedObject<T>> matches) {
    }

    private record Custom<T>(Indexer<T> indexer, Postings postings) {
    }

    /** A built-in index, off until its first lookup. */
    enum BuiltIn {
        NAMESPACE, OWNER, LABEL
    }

    private final String owner;
    private final Set<BuiltIn> built = ConcurrentHashMap.newKeySet();
    private final Postings namespaces = new Postings();
    private final Postings owners = new Postings();
    private final Map<String, Postings> labels = new ConcurrentHashMap<>();
    /** Replaced whole when an index is added. */
    private volatile Map<String, Custom<T>> custom = Map.of();

    /** @param owner the store's watcher, for logs */
    StoreIndexes(String owner) {
        this.owner = owner;
    }

    /** Files the change of one object from {@code old} to {@code current}; either is null when absent. */
    void update(CachedObject<T> old, CachedObject<T> current) {
        ObjectKey key = (current != null ? current : old).key();
        if (built.contains(BuiltIn.NAMESPACE)) {
            if (old == null) {
                namespaces.add(namespaceKey(key.namespace()), key);
            } else if (current == null) {
                namespaces.remove(namespaceKey(key.namespace()), key);
            }
        }
        if (built.contains(BuiltIn.OWNER)) {
            move(owners, controllerUid(old), controllerUid(current), key);
        }
        if (built.contains(BuiltIn.LABEL)) {
            updateLabels(old == null ? Map.of() : old.labels(), current == null ? Map.of() : current.labels(), key);
        }
        for (Custom<T> index : custom.values()) {
            Collection<String> was = keys(index, old, false);
            Collection<String> is = keys(index, current, true);
            for (String gone : was) {
                if (!is.contains(gone)) {
                    index.postings().remove(gone, key);
                }
            }
            for (String came : is) {
                index.postings().add(came, key);
            }
        }
    }

    /** Whether the built-in index {@code index} is maintained already; any thread. */
    boolean isBuilt(BuiltIn index) {
        return built.contains(index);
    }

    /** Builds the built-in index {@code index} over {@code held}, the objects the store holds now, unless it is. */
    void build(BuiltIn index, Collection<CachedObject<T>> held) {
        if (built.contains(index)) {
            return;
        }
        for (CachedObject<T> object : held) {
            ObjectKey key = object.key();
            switch (index) {
                case NAMESPACE -> namespaces.add(namespaceKey(key.namespace()), key);
                case OWNER -> move(owners, null, controllerUid(object), key);
                case LABEL -> updateLabels(Map.of(), object.labels(), key);
            }
        }
        built.add(index);
        log.debug("watcher {}: built its {} index over {} objects", owner, index.name().toLowerCase(), held.size());
    }

    /**
     * Adds a custom index over {@code held}, the objects the store holds now; an index of that name and function
     * already there is kept.
     *
     * @throws IllegalStateException when the name is built in or another function has it
     */
    void add(Indexer<T> indexer, Collection<CachedObject<T>> held) {
        String name = indexer.name();
        if (Set.of(NAMESPACE, OWNER, LABEL).contains(name)) {
            throw new IllegalStateException("watcher " + owner + ": the index name '" + name + "' is built in; give"
                    + " the custom index another name");
        }
        Custom<T> existing = custom.get(name);
        if (existing != null) {
            if (existing.indexer().equals(indexer)) {
                return;
            }
            throw new IllegalStateException("watcher " + owner + " is given two indexes named '" + name
                    + "' with different functions; rename one, or declare the same function object in both places");
        }
        Custom<T> index = new Custom<>(indexer, new Postings());
        for (CachedObject<T> object : held) {
            for (String key : keys(index, object, true)) {
                index.postings().add(key, object.key());
            }
        }
        Map<String, Custom<T>> more = new LinkedHashMap<>(custom);
        more.put(name, index);
        custom = Collections.unmodifiableMap(more);
    }

    Lookup<T> namespace(String namespace) {
        return new Lookup<>(namespaces.get(namespaceKey(namespace)), object -> true);
    }

    Lookup<T> owner(String uid) {
        Objects.requireNonNull(uid, "uid");
        return new Lookup<>(owners.get(uid), object -> uid.equals(controllerUid(object)));
    }

    Lookup<T> label(String key, String value) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        Postings values = labels.get(key);
        return new Lookup<>(values == null ? new ArrayList<>() : values.get(value),
                object -> value.equals(object.labels().get(key)));
    }

    /** @throws IllegalArgumentException when there is no custom index {@code name} */
    Lookup<T> index(String name, String key) {
        Objects.requireNonNull(key, "key");
        Custom<T> index = custom.get(name);
        if (index == null) {
            throw new IllegalArgumentException("watcher " + owner + " has no index named '" + name + "'; its custom"
                    + " indexes: " + custom.keySet() + " (declare one with WatcherSpec.index)");
        }
        return new Lookup<>(index.postings().get(key), object -> keys(index, object, true).contains(key));
    }

    /** Each index's size: the built-in ones, then the custom ones in the order they were added. */
    List<IndexStats> stats() {
        List<IndexStats> stats = new ArrayList<>();
        stats.add(stats(NAMESPACE, namespaces));
        stats.add(stats(OWNER, owners));
        int keys = 0;
        long entries = 0;
        long bytes = 0;
        for (Postings values : labels.values()) {
            keys += values.keys();
            entries += values.entries();
            bytes += LABEL_KEY_BYTES + values.estimatedBytes();
        }
        stats.add(new IndexStats(LABEL, keys, entries, bytes));
        custom.forEach((name, index) -> stats.add(stats(name, index.postings())));
        return stats;
    }

    private static IndexStats stats(String name, Postings postings) {
        return new IndexStats(name, postings.keys(), postings.entries(), postings.estimatedBytes());
    }

    private void updateLabels(Map<String, String> was, Map<String, String> is, ObjectKey key) {
        for (Map.Entry<String, String> label : was.entrySet()) {
            if (label.getValue() != null && !label.getValue().equals(is.get(label.getKey()))) {
                Postings values = labels.get(label.getKey());
                if (values != null && values.remove(label.getValue(), key) && values.keys() == 0) {
                    labels.remove(label.getKey());
                }
            }
        }
        for (Map.Entry<String, String> label : is.entrySet()) {
            if (label.getValue() != null && !label.getValue().equals(was.get(label.getKey()))) {
                labels.computeIfAbsent(label.getKey(), k -> new Postings()).add(label.getValue(), key);
            }
        }
    }

    private static void move(Postings postings, String was, String is, ObjectKey key) {
        if (Objects.equals(was, is)) {
            return;
        }
        if (was != null) {
            postings.remove(was, key);
        }
        if (is != null) {
            postings.add(is, key);
        }
    }

    /** The keys of {@code object} in {@code index}; none for an absent or undecodable object or a failing function. */
    private Collection<String> keys(Custom<T> index, CachedObject<T> object, boolean report) {
        T model = object == null ? null : object.decoded();
        if (model == null) {
            return List.of();
        }
        try {
            Collection<String> keys = index.indexer().keys().apply(model);
            return keys == null ? List.of() : keys.stream().filter(Objects::nonNull).distinct().toList();
        } catch (RuntimeException e) {
            if (report) {
                log.warn("watcher {}: the index '{}' failed on {}; it files the object under no key", owner,
                        index.indexer().name(), object, e);
            }
            return List.of();
        }
    }

    /** The uid of the ownerReference with {@code controller: true}, or {@code null}; read without decoding. */
    static String controllerUid(CachedObject<?> object) {
        if (object == null) {
            return null;
        }
        for (V1OwnerReference reference : object.ownerReferences()) {
            if (Boolean.TRUE.equals(reference.getController())) {
                return reference.getUid();
            }
        }
        return null;
    }

    private static String namespaceKey(String namespace) {
        return namespace == null ? CLUSTER : namespace;
    }
}
