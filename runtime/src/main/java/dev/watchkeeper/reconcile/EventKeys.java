package dev.watchkeeper.reconcile;

import dev.watchkeeper.store.CachedObject;
import dev.watchkeeper.store.ObjectKey;
import dev.watchkeeper.store.Store;
import dev.watchkeeper.watch.WatchEvent;
import dev.watchkeeper.watch.WatchEventListener;
import io.kubernetes.client.common.KubernetesObject;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Turns a controller's watch events into queued keys: primary changes through the trigger filter, secondary changes
 * through their mappers (docs/semantics.md §10). Deletes (a relist's final-state-unknown ones too) forget the keys of
 * vanished primaries and wake the primaries of vanished secondaries.
 *
 * <p>With a debounce, a key an event enqueues is due that long after the event. The queue keeps the earliest due
 * time of a queued key, so later events of a burst do not push it back: a fixed window from the burst's first
 * event, and an object that changes without pause is still reconciled once per window. The initial enqueue and
 * resyncs ({@link #enqueueAll}) are not delayed.
 *
 * <p>A trigger filter compares an object with the version this controller last let through or skipped; the store
 * holds only the newest version, so that memory lives here, and only while a filter is set.
 */
final class EventKeys<T extends KubernetesObject> {

    private final Store<T> primaries;
    private final WorkQueue<ObjectKey> queue;
    private final FailureLedger ledger;
    private final TriggerFilter<T> filter;
    private final Duration debounce;
    private final Map<ObjectKey, T> lastSeen = new ConcurrentHashMap<>();

    /** {@code filter}: {@code null} to reconcile every change; {@code debounce}: zero for none. */
    EventKeys(Store<T> primaries, WorkQueue<ObjectKey> queue, FailureLedger ledger, TriggerFilter<T> filter,
            Duration debounce) {
        this.primaries = primaries;
        this.queue = queue;
        this.ledger = ledger;
        this.filter = filter;
        this.debounce = debounce;
    }

    /** Handles an event of the primary watcher. */
    void onPrimary(WatchEvent<T> event) {
        if (event instanceof WatchEvent.Apply<T> apply) {
            onChange(apply.cached());
        } else if (event instanceof WatchEvent.InitApply<T> apply) {
            onChange(apply.cached());
        } else if (event instanceof WatchEvent.Delete<T> delete) {
            forget(delete.cached().key()); // a relist's vanished objects come as deletes too
        }
    }

    /** Whether {@link #onPrimary} reads objects' models: only to compare them with a trigger filter. */
    boolean readsObjects() {
        return filter != null;
    }

    /** A listener for a secondary watcher: each object's primary keys, from {@code mapper}, are queued. */
    <S extends KubernetesObject> WatchEventListener<S> secondaryListener(SecondaryMapper<S> mapper) {
        return event -> {
            S object = event instanceof WatchEvent.Apply<S> apply ? apply.object()
                    : event instanceof WatchEvent.InitApply<S> apply ? apply.object()
                    : event instanceof WatchEvent.Delete<S> delete ? delete.object() : null;
            if (object != null) {
                Collection<ObjectKey> keys = mapper.map(object);
                if (keys != null) {
                    keys.forEach(key -> queue.add(key, debounce));
                }
            }
        };
    }

    /** Queues every primary in the store (once all stores are ready, and on each resync). */
    void enqueueAll() {
        for (T object : primaries.list()) {
            ObjectKey key = ObjectKey.of(object);
            if (filter != null) {
                // A watcher started before this controller may have delivered the initial list to the store only;
                // remember those objects, or their first status-only change would look like a first sighting.
                lastSeen.putIfAbsent(key, object);
            }
            queue.add(key);
        }
    }

    /** Forgets everything about {@code key} (its object is gone). */
    void forget(ObjectKey key) {
        ledger.forget(key);
        lastSeen.remove(key);
    }

    private void onChange(CachedObject<T> cached) {
        ObjectKey key = cached.key();
        if (filter != null) {
            T object = cached.object();
            T previous = lastSeen.put(key, object);
            if (!filter.shouldReconcile(previous, object)) {
                return;
            }
        }
        queue.add(key, debounce);
    }
}
