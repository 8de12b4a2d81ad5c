package dev.watchkeeper.internal.reconcile;

import dev.watchkeeper.reconcile.SecondaryMapper;
import dev.watchkeeper.reconcile.TriggerFilter;
import dev.watchkeeper.store.CachedObject;
import dev.watchkeeper.store.ObjectKey;
import dev.watchkeeper.store.Store;
import dev.watchkeeper.watch.WatchEvent;
import dev.watchkeeper.watch.WatchEventListener;
import dev.watchkeeper.internal.watch.WatcherGroup;
import io.kubernetes.client.common.KubernetesObject;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

/**
 * Turns a reconciler's watch events into queued keys: primary changes through the trigger filter, secondary changes
 * through their mappers (docs/semantics.md §10). Deletes (a relist's final-state-unknown ones too) forget the keys of
 * vanished primaries and wake the primaries of vanished secondaries.
 *
 * <p>With a debounce, a key an event enqueues is due that long after the event. The queue keeps the earliest due
 * time of a queued key, so later events of a burst do not push it back: a fixed window from the burst's first
 * event, and an object that changes without pause is still reconciled once per window. The initial enqueue and
 * resyncs ({@link #enqueueAll}) are not delayed.
 *
 * <p>Keys of an initial list or a relist ({@code InitApply}, and the deletes a relist infers) and of
 * {@link #enqueueAll resyncs} are queued at {@link Priority#LOW}: their objects were most likely reconciled before,
 * so a restart's backlog must not hold up live changes ({@code Apply}, a watched {@code Delete}), which are
 * {@link Priority#NORMAL}.
 *
 * <p>An event that brings back a version this reconciler wrote itself ({@link OwnWrites}) queues nothing: the
 * reconcile that wrote it already acted on it. Any other change, of the primary or a secondary, queues as above.
 *
 * <p>A trigger filter compares an object with the version this reconciler last let through or skipped; the store
 * holds only the newest version, so that memory lives here, and only while a filter is set.
 */
final class EventKeys<T extends KubernetesObject> {

    private final Store<T> primaries;
    private final ReconcileQueue queue;
    private final TriggerFilter<T> filter;
    private final Duration debounce;
    private final OwnWrites ownWrites;
    /** The reconciler's finalizer, {@code null} without one. */
    private final String finalizer;
    private final Map<ObjectKey, T> lastSeen = new ConcurrentHashMap<>();
    /** Objects that left the primary watcher still carrying {@link #finalizer}, until their finalizer is released. */
    private final Map<ObjectKey, CachedObject<T>> leftWithFinalizer = new ConcurrentHashMap<>();

    /**
     * {@code filter}: {@code null} to reconcile every change; {@code debounce}: zero for none; {@code finalizer}: the
     * reconciler's, {@code null} without one.
     */
    EventKeys(Store<T> primaries, ReconcileQueue queue, TriggerFilter<T> filter, Duration debounce,
            OwnWrites ownWrites, String finalizer) {
        this.primaries = primaries;
        this.queue = queue;
        this.filter = filter;
        this.debounce = debounce;
        this.ownWrites = ownWrites;
        this.finalizer = finalizer;
    }

    /**
     * The filter of {@code settings}' triggers combined with {@code own} by "either" ({@code null}: every change
     * passes); with a finalizer a started deletion passes too, since it must reach the cleanup.
     */
    static <T extends KubernetesObject> TriggerFilter<T> filter(ReconcilerSettings settings, TriggerFilter<T> own,
            boolean finalizer) {
        TriggerFilter<T> fromTriggers = settings.triggerFilter();
        TriggerFilter<T> filter = fromTriggers == null ? own : own == null ? fromTriggers : fromTriggers.or(own);
        return filter != null && finalizer ? filter.or(TriggerFilter.deletionStarted()) : filter;
    }

    /**
     * Listens to the primary watcher; while {@code inert} is true events are ignored (watchers cannot drop a
     * listener, so a closed reconciler's stays registered but inert).
     */
    void listenTo(WatcherGroup<T> primary, BooleanSupplier inert) {
        primary.addListener(new WatchEventListener<>() {
            @Override
            public void onEvent(WatchEvent<T> event) {
                if (!inert.getAsBoolean()) {
                    onPrimary(event);
                }
            }

            @Override
            public boolean readsObjects() {
                return filter != null; // only to compare objects with a trigger filter
            }
        });
    }

    /** Listens to a secondary watcher: each object's primary keys, from {@code mapper}, are queued. */
    <S extends KubernetesObject> void listenTo(WatcherGroup<S> secondary, SecondaryMapper<S> mapper,
            BooleanSupplier inert) {
        secondary.addListener(event -> {
            if (inert.getAsBoolean()) {
                return;
            }
            CachedObject<S> cached = event instanceof WatchEvent.Apply<S> apply ? apply.cached()
                    : event instanceof WatchEvent.InitApply<S> apply ? apply.cached()
                    : event instanceof WatchEvent.Delete<S> delete ? delete.cached() : null;
            if (cached == null) {
                return;
            }
            Priority priority = priorityOf(event);
            Runnable owners = () -> {
                S object = cached.object();
                Collection<ObjectKey> keys = object == null ? null : mapper.map(object);
                if (keys != null) {
                    keys.forEach(key -> queue.addAfter(key, debounce, priority));
                }
            };
            if (event instanceof WatchEvent.Delete<S>) {
                ownWrites.forget(cached.uid());
            } else if (ownWrites.handled(cached.key(), cached.uid(), cached.resourceVersion(), owners)) {
                return; // our own write of a child (its owner's reconcile made it), or held until that write ends
            }
            owners.run();
        });
    }

    /** LOW for what a list or relist reports, NORMAL for what the live watch does. */
    private static Priority priorityOf(WatchEvent<?> event) {
        return event instanceof WatchEvent.InitApply<?>
                || event instanceof WatchEvent.Delete<?> delete && delete.finalStateUnknown()
                ? Priority.LOW : Priority.NORMAL;
    }

    private void onPrimary(WatchEvent<T> event) {
        if (event instanceof WatchEvent.Apply<T> apply) {
            onChange(apply.cached(), Priority.NORMAL);
        } else if (event instanceof WatchEvent.InitApply<T> apply) {
            onChange(apply.cached(), Priority.LOW);
        } else if (event instanceof WatchEvent.Delete<T> delete) {
            CachedObject<T> gone = delete.cached();
            ownWrites.forget(gone.uid());
            if (finalizer != null && gone.finalizers().contains(finalizer)) {
                // The server deletes an object only once its finalizers are gone: this one left the watch (its
                // labels or fields no longer match, or a relist did not find it). Its worker releases the finalizer.
                leftWithFinalizer.put(gone.key(), gone);
                queue.add(gone.key(), priorityOf(event));
                return;
            }
            forget(gone.key()); // a relist's vanished objects come as deletes too
        }
    }

    /** Queues every primary in the store, at LOW priority (once all stores are ready, and on each resync). */
    void enqueueAll() {
        enqueueIf(object -> true);
    }

    /**
     * Queues the primaries in the store that {@code which} selects (those of slots a sharded reconciler gained), at
     * LOW priority.
     *
     * @return how many it queued
     */
    int enqueueIf(Predicate<T> which) {
        int queued = 0;
        for (T object : primaries.list()) {
            if (!which.test(object)) {
                continue;
            }
            ObjectKey key = ObjectKey.of(object);
            if (filter != null) {
                // A watcher started before this reconciler may have delivered the initial list to the store only;
                // remember those objects, or their first status-only change would look like a first sighting.
                lastSeen.putIfAbsent(key, object);
            }
            queue.add(key, Priority.LOW);
            queued++;
        }
        return queued;
    }

    /**
     * Queues the objects that left the watch carrying the finalizer whose uid {@code which} selects (those of slots
     * a sharded reconciler gained), at LOW priority.
     *
     * @return how many it queued
     */
    int enqueueLeftIf(Predicate<String> which) {
        int queued = 0;
        for (CachedObject<T> left : leftWithFinalizer.values()) {
            if (which.test(left.uid())) {
                queue.add(left.key(), Priority.LOW);
                queued++;
            }
        }
        return queued;
    }

    /** Forgets the objects that left the watch carrying the finalizer whose uid {@code which} selects. */
    void forgetLeftIf(Predicate<String> which) {
        leftWithFinalizer.values().removeIf(left -> which.test(left.uid()));
    }

    /** Forgets everything about {@code key} (its object is gone). */
    void forget(ObjectKey key) {
        queue.forget(key);
        lastSeen.remove(key);
        leftWithFinalizer.remove(key);
    }

    /** The object under {@code key} as it left the watch still carrying the finalizer, if it did. */
    CachedObject<T> leftWithFinalizer(ObjectKey key) {
        return leftWithFinalizer.get(key);
    }

    private void onChange(CachedObject<T> cached, Priority priority) {
        ObjectKey key = cached.key();
        leftWithFinalizer.remove(key); // back in the watch: reconciled as usual
        if (filter != null) {
            T object = cached.object();
            T previous = lastSeen.put(key, object);
            if (!filter.shouldReconcile(previous, object)) {
                ownWrites.seen(cached.uid(), cached.resourceVersion()); // a key may wait for this version
                return;
            }
        }
        if (ownWrites.handled(key, cached.uid(), cached.resourceVersion(),
                () -> queue.addAfter(key, debounce, priority))) {
            return; // our own write (the reconcile that made it acted on this version), or held until it ends
        }
        queue.addAfter(key, debounce, priority);
    }
}
