package dev.watchkeeper.store;

import dev.watchkeeper.watch.WatchEvent;
import dev.watchkeeper.watch.WatchEventListener;
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
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * The {@link Store} a watcher feeds. A relist is <em>mark and sweep</em> (docs/semantics.md §8): {@code Init} starts a new
 * epoch, {@code InitApply} upserts in place with it, {@code InitDone} sweeps out what the new list did not
 * mention (the watcher reports those as final-state-unknown deletes first, see {@link #sweep()}). So a relist never holds a second copy of the cache, unlike buffer-and-swap reflectors, and readers
 * see every object throughout.
 *
 * <p>It holds {@link CachedObject}s: an object's model is decoded when a reader first asks for it, and label
 * selectors read the labels without decoding. An object that cannot be decoded is not served ({@code get} is empty,
 * {@code list} omits it) and is reported once per version to the {@code undecodable} callback.
 *
 * <pre>{@code
 * CacheStore<V1ConfigMap> store = new CacheStore<>(true, object -> log.warn("{}: {}", object, object.problem()));
 * watcher.addListener(store);
 * }</pre>
 */
public final class CacheStore<T extends KubernetesObject> implements Store<T>, WatchEventListener<T> {

    private record Entry<T>(CachedObject<T> object, long epoch) {
    }

    private final Map<ObjectKey, Entry<T>> entries = new ConcurrentHashMap<>();
    private final CompletableFuture<Void> ready = new CompletableFuture<>();
    private final boolean stripManagedFields;
    private final Consumer<CachedObject<T>> undecodable;
    private volatile long epoch;

    /**
     * @param stripManagedFields drop {@code metadata.managedFields}, which often outweighs the rest of an object, from
     *                           models handed in decoded (objects read from JSON leave them behind when read)
     * @param undecodable        told, once per version, of each object whose model cannot be decoded
     */
    public CacheStore(boolean stripManagedFields, Consumer<CachedObject<T>> undecodable) {
        this.stripManagedFields = stripManagedFields;
        this.undecodable = Objects.requireNonNull(undecodable, "undecodable");
    }

    @Override
    public void onEvent(WatchEvent<T> event) {
        if (event instanceof WatchEvent.Init<T>) {
            epoch++;
        } else if (event instanceof WatchEvent.InitApply<T> apply) {
            put(apply.cached());
        } else if (event instanceof WatchEvent.Apply<T> apply) {
            put(apply.cached());
        } else if (event instanceof WatchEvent.Delete<T> delete) {
            entries.remove(delete.cached().key());
        } else if (event instanceof WatchEvent.InitDone<T>) {
            sweep();
            ready.complete(null);
        }
    }

    /**
     * Removes the objects the current (re)list did not mention and returns them, as {@code InitDone} does. The
     * watcher calls it just before {@code InitDone} to report each as a final-state-unknown
     * {@link WatchEvent.Delete}.
     */
    public List<CachedObject<T>> sweep() {
        long current = epoch;
        List<CachedObject<T>> swept = new ArrayList<>();
        entries.entrySet().removeIf(entry -> {
            boolean stale = entry.getValue().epoch() < current;
            if (stale) {
                swept.add(entry.getValue().object());
            }
            return stale;
        });
        return swept;
    }

    private void put(CachedObject<T> object) {
        if (stripManagedFields && object.isDecoded()) {
            T model = object.decoded();
            V1ObjectMeta metadata = model == null ? null : model.getMetadata();
            if (metadata != null && metadata.getManagedFields() != null) {
                metadata.setManagedFields(null);
            }
        }
        entries.put(object.key(), new Entry<>(object, epoch));
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

    @Override
    public List<T> list() {
        return decodedInOrder(entries.entrySet().stream());
    }

    @Override
    public List<T> list(String labelSelector) {
        LabelSelector selector = LabelSelector.parse(labelSelector);
        return decodedInOrder(entries.entrySet().stream()
                .filter(e -> selector.matches(e.getValue().object().labels())));
    }

    @Override
    public List<T> listInNamespace(String namespace) {
        return decodedInOrder(entries.entrySet().stream()
                .filter(e -> Objects.equals(e.getKey().namespace(), namespace)));
    }

    private List<T> decodedInOrder(Stream<Map.Entry<ObjectKey, Entry<T>>> selected) {
        List<T> models = new ArrayList<>();
        selected.sorted(Map.Entry.comparingByKey()).forEach(e -> {
            T model = decoded(e.getValue().object());
            if (model != null) {
                models.add(model);
            }
        });
        return models;
    }

    private T decoded(CachedObject<T> object) {
        T model = object.decoded();
        if (model == null && object.claimReport()) {
            undecodable.accept(object);
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
