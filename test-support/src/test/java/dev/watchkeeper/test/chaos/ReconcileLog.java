package dev.watchkeeper.test.chaos;

import dev.watchkeeper.reconcile.ReconcileContext;
import dev.watchkeeper.internal.reconcile.ReconcileFunction;
import dev.watchkeeper.reconcile.ReconcileResult;
import dev.watchkeeper.store.ObjectKey;
import dev.watchkeeper.watch.WatchError;
import dev.watchkeeper.watch.WatchEvent;
import dev.watchkeeper.watch.WatchEventListener;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A reconciler that records what it saw: each successful reconcile's key and resourceVersion in order, every time
 * two reconciles of one key overlapped, and every reconcile handed a version of an object whose deletion the
 * watcher had delivered (as a DELETED event or a relist's sweep) well before. Register it as a listener of the
 * primary watcher too; it also counts the watcher's errors by kind. Seeded: a few reconciles fail once, so per-object retries happen too.
 */
final class ReconcileLog implements ReconcileFunction<V1ConfigMap>, WatchEventListener<V1ConfigMap> {

    /**
     * A worker takes the object from the store a moment before it calls the reconciler, so a deletion delivered in
     * between is no fault; one delivered this long before the call is.
     */
    private static final long DELIVERED_WELL_BEFORE = TimeUnit.MILLISECONDS.toNanos(100);

    /** A delivered deletion: every version below {@code resourceVersion} is gone since {@code at} (nanoTime). */
    private record Deletion(long resourceVersion, long at) {
    }

    /** One successful reconcile. */
    record Entry(ObjectKey key, long resourceVersion) {
    }

    private final Random random;
    private final Set<ObjectKey> running = ConcurrentHashMap.newKeySet();
    private final List<Entry> entries = new ArrayList<>();
    private final List<String> overlaps = new ArrayList<>();
    private final AtomicInteger failures = new AtomicInteger();
    private final Map<ObjectKey, Deletion> deletions = new ConcurrentHashMap<>();
    private final List<String> afterDeletion = new ArrayList<>();
    // The watcher's view, kept by its thread: keys present and keys listed since the relist began.
    private final Set<ObjectKey> present = new HashSet<>();
    private final Set<ObjectKey> relisted = new HashSet<>();
    private final Map<String, Integer> watcherErrors = new ConcurrentHashMap<>();

    ReconcileLog(long seed) {
        this.random = new Random(seed);
    }

    @Override
    public ReconcileResult reconcile(V1ConfigMap object, ReconcileContext context) throws Exception {
        ObjectKey key = context.key();
        if (!running.add(key)) {
            synchronized (overlaps) {
                overlaps.add(key + "@" + object.getMetadata().getResourceVersion());
            }
        }
        long version = Long.parseLong(object.getMetadata().getResourceVersion());
        Deletion deletion = deletions.get(key);
        if (deletion != null && version < deletion.resourceVersion()
                && System.nanoTime() - deletion.at() > DELIVERED_WELL_BEFORE) {
            synchronized (afterDeletion) {
                afterDeletion.add(key + "@" + version + " deleted at " + deletion.resourceVersion());
            }
        }
        try {
            boolean fail;
            synchronized (random) {
                fail = context.attempt() == 1 && random.nextInt(50) == 0;
            }
            if (fail) {
                failures.incrementAndGet();
                throw new IllegalStateException("injected reconcile failure of " + key);
            }
            Thread.yield(); // let another worker try the same key, were the queue to allow it
            synchronized (entries) {
                entries.add(new Entry(key, version));
            }
            return ReconcileResult.done();
        } finally {
            running.remove(key);
        }
    }

    @Override
    public void onEvent(WatchEvent<V1ConfigMap> event) {
        if (event instanceof WatchEvent.Failure<V1ConfigMap> failure) {
            WatchError error = failure.error();
            watcherErrors.merge(error.kind() + (error.code() > 0 ? " " + error.code() : ""), 1, Integer::sum);
        }
        // A key that comes back has a newer version; an older one handed over later is a regression (see there).
        if (event instanceof WatchEvent.Init<V1ConfigMap>) {
            relisted.clear();
        } else if (event instanceof WatchEvent.InitApply<V1ConfigMap> apply) {
            relisted.add(ObjectKey.of(apply.object()));
            present.add(ObjectKey.of(apply.object()));
            deletions.remove(ObjectKey.of(apply.object()));
        } else if (event instanceof WatchEvent.Apply<V1ConfigMap> apply) {
            present.add(ObjectKey.of(apply.object()));
            deletions.remove(ObjectKey.of(apply.object()));
        } else if (event instanceof WatchEvent.Delete<V1ConfigMap> delete) {
            ObjectKey key = ObjectKey.of(delete.object());
            present.remove(key);
            deletions.put(key, new Deletion(Long.parseLong(delete.object().getMetadata().getResourceVersion()),
                    System.nanoTime()));
        } else if (event instanceof WatchEvent.InitDone<V1ConfigMap>) {
            for (ObjectKey swept : present.stream().filter(k -> !relisted.contains(k)).toList()) {
                present.remove(swept);
                deletions.put(swept, new Deletion(Long.MAX_VALUE, System.nanoTime()));
            }
        }
    }

    /** The errors the watcher reported, by kind and code: how the injected faults looked to it. */
    Map<String, Integer> watcherErrors() {
        return Map.copyOf(watcherErrors);
    }

    /** Reconciles handed a version of an object whose deletion had been delivered well before. */
    List<String> afterDeletion() {
        synchronized (afterDeletion) {
            return List.copyOf(afterDeletion);
        }
    }

    List<Entry> entries() {
        synchronized (entries) {
            return List.copyOf(entries);
        }
    }

    List<String> overlaps() {
        synchronized (overlaps) {
            return List.copyOf(overlaps);
        }
    }

    int failures() {
        return failures.get();
    }

    boolean idle() {
        return running.isEmpty();
    }

    /** The resourceVersion each key was last reconciled at. */
    Map<ObjectKey, Long> lastVersions() {
        Map<ObjectKey, Long> last = new HashMap<>();
        entries().forEach(e -> last.put(e.key(), e.resourceVersion()));
        return last;
    }

    /** Keys whose reconciles went back to an older resourceVersion: a stale object handed to the reconciler. */
    List<String> regressions() {
        Map<ObjectKey, Long> seen = new HashMap<>();
        List<String> regressions = new ArrayList<>();
        for (Entry entry : entries()) {
            Long before = seen.put(entry.key(), entry.resourceVersion());
            if (before != null && before > entry.resourceVersion()) {
                regressions.add(entry.key() + ": " + before + " then " + entry.resourceVersion());
            }
        }
        return regressions;
    }
}
