package dev.watchkeeper.internal.store;

import dev.watchkeeper.store.CachedObject;
import dev.watchkeeper.store.Indexer;
import dev.watchkeeper.store.ObjectKey;
import dev.watchkeeper.store.Store;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link Store} a watcher writes. Its writer calls four verbs and the store knows nothing of watch events: a
 * relist is <em>mark and sweep</em> (docs/semantics.md §8): {@link #startRelist()} starts a new epoch,
 * {@link #apply} upserts in place with it, and {@link #finishRelist()} sweeps out what the new list did not mention
 * and hands it back (the watcher reports those as final-state-unknown deletes). So a relist never holds a second
 * copy of the cache, unlike buffer-and-swap reflectors, and readers see every object throughout.
 *
 * <p>It holds {@link CachedObject}s: an object's model is decoded when a reader first asks for it, and label
 * selectors read the labels without decoding. An object that cannot be decoded is not served ({@code get} is empty,
 * {@code list} omits it); the first reader to meet it logs it (once per version) and {@link #undecodableReads()}
 * counts it.
 *
 * <p>Its {@link StoreIndexes} (by namespace, controller owner, label, and custom {@link Indexer}s) change with every
 * write, under one lock that only adding an index contends for: a custom one ({@link #addIndex}), or a built-in one on
 * its first lookup. Lookups take no lock once their index is built.
 *
 * <pre>{@code
 * CacheStore<V1ConfigMap> store = new CacheStore<>("configmaps@default", true);
 * store.startRelist();
 * page.forEach(store::apply);
 * List<CachedObject<V1ConfigMap>> gone = store.finishRelist();
 * }</pre>
 */
public final class CacheStore<T extends KubernetesObject> implements Store<T> {

    private static final Logger log = LoggerFactory.getLogger(CacheStore.class);

    private record Entry<T>(CachedObject<T> object, long epoch) {
    }

    private final Map<ObjectKey, Entry<T>> entries = new ConcurrentHashMap<>();
    private final CompletableFuture<Void> ready = new CompletableFuture<>();
    private final String owner;
    private final boolean stripManagedFields;
    private final AtomicLong undecodableReads = new AtomicLong();
    private final StoreIndexes<T> indexes;
    /** Held by each write, so an index added from another thread sees every object exactly once. */
    private final Object writeLock = new Object();
    private volatile long epoch;

    /**
     * @param owner              the name of the watcher that writes it, for logs
     * @param stripManagedFields drop {@code metadata.managedFields}, which often outweighs the rest of an object, from
     *                           models handed in decoded (objects read from JSON leave them behind when read)
     */
    public CacheStore(String owner, boolean stripManagedFields) {
        this.owner = Objects.requireNonNull(owner, "owner");
        this.stripManagedFields = stripManagedFields;
        this.indexes = new StoreIndexes<>(owner);
    }

    /** A (re)list begins: what it applies from now on is kept by {@link #finishRelist()}, the rest swept. */
    public void startRelist() {
        epoch++;
    }

    /** Puts {@code object} in place of any older version of it. */
    public void apply(CachedObject<T> object) {
        if (stripManagedFields && object.isDecoded()) {
            T model = object.decoded();
            V1ObjectMeta metadata = model == null ? null : model.getMetadata();
            if (metadata != null && metadata.getManagedFields() != null) {
                metadata.setManagedFields(null);
            }
        }
        synchronized (writeLock) {
            Entry<T> old = entries.put(object.key(), new Entry<>(object, epoch));
            indexes.update(old == null ? null : old.object(), object);
        }
    }

    /** Removes the object with this key, if cached. */
    public void delete(ObjectKey key) {
        synchronized (writeLock) {
            Entry<T> old = entries.remove(Objects.requireNonNull(key, "key"));
            if (old != null) {
                indexes.update(old.object(), null);
            }
        }
    }

    /**
     * Adds a custom index over what the store holds and everything it is given from now on; any thread, any time.
     * An index of the same name and function already there is kept.
     *
     * @throws IllegalStateException when the name is built in or taken by another function
     */
    public void addIndex(Indexer<T> indexer) {
        Objects.requireNonNull(indexer, "indexer");
        synchronized (writeLock) {
            indexes.add(indexer, entries.values().stream().map(Entry::object).toList());
        }
    }

    /** What each index holds: the built-in ones, then the custom ones. */
    public List<IndexStats> indexStats() {
        return indexes.stats();
    }

    /**
     * The (re)list is complete: removes the objects it did not mention, makes the store {@link #ready()}, and returns
     * what it removed, for its writer to report as deleted while nobody watched.
     */
    public List<CachedObject<T>> finishRelist() {
        long current = epoch;
        List<CachedObject<T>> swept = new ArrayList<>();
        synchronized (writeLock) {
            entries.entrySet().removeIf(entry -> {
                boolean stale = entry.getValue().epoch() < current;
                if (stale) {
                    swept.add(entry.getValue().object());
                }
                return stale;
            });
            swept.forEach(gone -> indexes.update(gone, null));
        }
        ready.complete(null);
        return swept;
    }

    /** How many cached objects readers found undecodable (each version once); they are not served. */
    public long undecodableReads() {
        return undecodableReads.get();
    }

    @Override
    public Optional<T> get(ObjectKey key) {
        Entry<T> entry = entries.get(Objects.requireNonNull(key, "key"));
        return entry == null ? Optional.empty() : Optional.ofNullable(decoded(entry.object()));
    }

    /** The cached object with this key, its model not decoded by the call; for reading metadata only. */
    public Optional<CachedObject<T>> cached(ObjectKey key) {
        Entry<T> entry = entries.get(Objects.requireNonNull(key, "key"));
        return entry == null ? Optional.empty() : Optional.of(entry.object());
    }

    /** Every cached object, ordered by namespace and name, none decoded by the call; for handing on, not reading. */
    public List<CachedObject<T>> cachedObjects() {
        return inKeyOrder(object -> true);
    }

    @Override
    public List<T> list() {
        return models(inKeyOrder(object -> true));
    }

    @Override
    public List<T> list(String labelSelector) {
        LabelSelector selector = LabelSelector.parse(labelSelector);
        return models(inKeyOrder(object -> selector.matches(object.labels())));
    }

    @Override
    public List<T> listInNamespace(String namespace) {
        built(StoreIndexes.BuiltIn.NAMESPACE);
        return resolved(indexes.namespace(namespace == null || namespace.isEmpty() ? null : namespace));
    }

    @Override
    public List<T> listByOwner(String ownerUid) {
        built(StoreIndexes.BuiltIn.OWNER);
        return resolved(indexes.owner(ownerUid));
    }

    @Override
    public List<T> listByLabel(String key, String value) {
        built(StoreIndexes.BuiltIn.LABEL);
        return resolved(indexes.label(key, value));
    }

    /** Builds {@code index} over what the store holds on its first lookup, under the write lock. */
    private void built(StoreIndexes.BuiltIn index) {
        if (!indexes.isBuilt(index)) {
            synchronized (writeLock) {
                indexes.build(index, entries.values().stream().map(Entry::object).toList());
            }
        }
    }

    @Override
    public List<T> listByIndex(String index, String key) {
        return resolved(indexes.index(index, key));
    }

    /**
     * The candidates the store still holds and that still match, each once, in key order; decodes only those. A
     * candidate can come twice when the writer took it out and filed it again while the lookup read its index.
     */
    private List<T> resolved(StoreIndexes.Lookup<T> lookup) {
        List<ObjectKey> keys = lookup.candidates();
        keys.sort(null);
        List<T> models = new ArrayList<>(keys.size());
        ObjectKey previous = null;
        for (ObjectKey key : keys) {
            if (key.equals(previous)) {
                continue;
            }
            previous = key;
            Entry<T> entry = entries.get(key);
            if (entry != null && lookup.matches().test(entry.object())) {
                T model = decoded(entry.object());
                if (model != null) {
                    models.add(model);
                }
            }
        }
        return models;
    }

    /**
     * The cached objects {@code selected} accepts, each key once, in key order. Reading the map while the writer
     * deletes an object and applies it again can meet its key twice; then the object held now counts, if any.
     */
    private List<CachedObject<T>> inKeyOrder(Predicate<CachedObject<T>> selected) {
        List<Map.Entry<ObjectKey, Entry<T>>> found = new ArrayList<>();
        entries.entrySet().forEach(e -> {
            if (selected.test(e.getValue().object())) {
                found.add(e);
            }
        });
        found.sort(Map.Entry.comparingByKey());
        List<CachedObject<T>> objects = new ArrayList<>(found.size());
        for (int i = 0, next; i < found.size(); i = next) {
            ObjectKey key = found.get(i).getKey();
            next = i + 1;
            while (next < found.size() && found.get(next).getKey().equals(key)) {
                next++;
            }
            CachedObject<T> object = found.get(i).getValue().object();
            if (next - i > 1) {
                Entry<T> now = entries.get(key);
                object = now != null && selected.test(now.object()) ? now.object() : null;
            }
            if (object != null) {
                objects.add(object);
            }
        }
        return objects;
    }

    /** The models of {@code objects}, in their order, without the undecodable ones. */
    private List<T> models(List<CachedObject<T>> objects) {
        List<T> models = new ArrayList<>(objects.size());
        for (CachedObject<T> object : objects) {
            T model = decoded(object);
            if (model != null) {
                models.add(model);
            }
        }
        return models;
    }

    /** The model, or {@code null}; the first reader to find it undecodable reports it, on the reader's thread. */
    private T decoded(CachedObject<T> object) {
        T model = object.decoded();
        if (model == null && object.claimReport()) {
            undecodableReads.incrementAndGet();
            log.warn("watcher {}: skipped {}; it is not served until a newer version arrives", owner,
                    object.problem());
        }
        return model;
    }

    /** How many objects are cached, counting any whose model cannot be decoded. */
    @Override
    public int size() {
        return entries.size();
    }

    @Override
    public CompletableFuture<Void> ready() {
        return ready.copy();
    }

    @Override
    public boolean awaitReady(Duration timeout) throws InterruptedException {
        try {
            ready.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
            return true;
        } catch (TimeoutException e) {
            return false;
        } catch (ExecutionException e) {
            throw new IllegalStateException("the ready future never fails", e);
        }
    }
}
