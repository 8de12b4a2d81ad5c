package dev.watchkeeper.test.chaos;

import dev.watchkeeper.reconcile.ReconcileContext;
import dev.watchkeeper.reconcile.ReconcileFunction;
import dev.watchkeeper.reconcile.ReconcileResult;
import dev.watchkeeper.store.ObjectKey;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A reconciler that records what it saw: each successful reconcile's key and resourceVersion in order, and every
 * time two reconciles of one key overlapped. Seeded: a few reconciles fail once, so per-object retries happen too.
 */
final class ReconcileLog implements ReconcileFunction<V1ConfigMap> {

    /** One successful reconcile. */
    record Entry(ObjectKey key, long resourceVersion) {
    }

    private final Random random;
    private final Set<ObjectKey> running = ConcurrentHashMap.newKeySet();
    private final List<Entry> entries = new ArrayList<>();
    private final List<String> overlaps = new ArrayList<>();
    private final AtomicInteger failures = new AtomicInteger();

    ReconcileLog(long seed) {
        this.random = new Random(seed);
    }

    @Override
    public ReconcileResult reconcile(V1ConfigMap object, ReconcileContext context)
            throws Exception {
        ObjectKey key = context.key();
        if (!running.add(key)) {
            synchronized (overlaps) {
                overlaps.add(key + "@" + object.getMetadata().getResourceVersion());
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
                entries.add(new Entry(key, Long.parseLong(object.getMetadata().getResourceVersion())));
            }
            return ReconcileResult.done();
        } finally {
            running.remove(key);
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
