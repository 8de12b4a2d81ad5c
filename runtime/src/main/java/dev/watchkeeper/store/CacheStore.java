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

/**
 * The {@link Store} a watcher feeds. A relist is <em>mark and sweep</em> (docs/semantics.md §8): {@code Init} starts a new
 * epoch, {@code InitApply} upserts in place with it, {@code InitDone} sweeps out what the new list did not
 * mention (the watcher reports those as final-state-unknown deletes first, see {@link #sweep()}). So a relist never holds a second copy of the cache, unlike buffer-and-swap reflectors, and readers
 * see every object throughout.
 *
 * <pre>{@code
 * CacheStore<V1ConfigMap> store = new CacheStore<>(true);
 * watcher.addListener(store);
 * }</pre>
 */
public final class CacheStore<T extends KubernetesObject> implements Store<T>, WatchEventListener<T> {

    private record Entry<T>(T object, long epoch) {
    }

    private final Map<ObjectKey, Entry<T>> entries = new ConcurrentHashMap<>();
    private final CompletableFuture<Void> ready = new CompletableFuture<>();
    private final boolean stripManagedFields;
    private volatile long epoch;

    /** @param stripManagedFields drop {@code metadata.managedFields}, which often outweighs the rest of an object */
    public CacheStore(boolean stripManagedFields) {
        this.stripManagedFields = stripManagedFields;
    }

    @Override
    public void onEvent(WatchEvent<T> event) {
        if (event instanceof WatchEvent.Init<T>) {
            epoch++;
        } else if (event instanceof WatchEvent.InitApply<T> apply) {
            put(apply.object());
        } else if (event instanceof WatchEvent.Apply<T> apply) {
            put(apply.object());
        } else if (event instanceof WatchEvent.Delete<T> delete) {
            entries.remove(ObjectKey.of(delete.object()));
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
    public List<T> sweep() {
        long current = epoch;
        List<T> swept = new ArrayList<>();
        entries.entrySet().removeIf(entry -> {
            boolean stale = entry.getValue().epoch() < current;
            if (stale) {
                swept.add(entry.getValue().object());
            }
            return stale;
        });
        return swept;
    }

    private void put(T object) {
        if (stripManagedFields) {
            V1ObjectMeta metadata = object.getMetadata();
            if (metadata != null && metadata.getManagedFields() != null) {
                metadata.setManagedFields(null);
            }
        }
        entries.put(ObjectKey.of(object), new Entry<>(object, epoch));
    }

    @Override
    public Optional<T> get(ObjectKey key) {
        Entry<T> entry = entries.get(Objects.requireNonNull(key, "key"));
        return entry == null ? Optional.empty() : Optional.of(entry.object());
    }

    @Override
    public List<T> list() {
        return entries.entrySet().stream().sorted(Map.Entry.comparingByKey()).map(e -> e.getValue().object()).toList();
    }

    @Override
    public List<T> list(String labelSelector) {
        LabelSelector selector = LabelSelector.parse(labelSelector);
        return entries.entrySet().stream()
                .filter(e -> selector.matches(labels(e.getValue().object())))
                .sorted(Map.Entry.comparingByKey()).map(e -> e.getValue().object()).toList();
    }

    @Override
    public List<T> listInNamespace(String namespace) {
        return entries.entrySet().stream()
                .filter(e -> Objects.equals(e.getKey().namespace(), namespace))
                .sorted(Map.Entry.comparingByKey()).map(e -> e.getValue().object()).toList();
    }

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

    private static Map<String, String> labels(KubernetesObject object) {
        V1ObjectMeta metadata = object.getMetadata();
        return metadata == null ? null : metadata.getLabels();
    }
}
