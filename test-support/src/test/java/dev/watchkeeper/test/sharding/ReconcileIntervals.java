package dev.watchkeeper.test.sharding;

import dev.watchkeeper.reconcile.ReconcileResult;
import dev.watchkeeper.store.ObjectKey;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * One log of every reconcile of every replica: who reconciled which key at which resourceVersion, from when to when
 * ({@link System#nanoTime()}, one clock since the replicas share a JVM). Each reconcile takes a little while, as real
 * work would, so that two replicas reconciling one key at once would show as overlapping intervals: it makes a
 * simulated API call and waits for the answer, which {@link #API} gives {@link #WORK} after the call.
 */
final class ReconcileIntervals {

    /** Simulated work per reconcile: how long the simulated API call takes to answer. */
    private static final Duration WORK = Duration.ofMillis(2);
    /** The simulated API server: answers each call {@link #WORK} after it was made. */
    private static final ScheduledExecutorService API = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "simulated-api");
        thread.setDaemon(true);
        return thread;
    });

    /** One reconcile, also one that was interrupted or failed: it ran from {@code start} to {@code end}. */
    record Interval(String replica, ObjectKey key, String resourceVersion, long start, long end) {
    }

    private final ConcurrentLinkedQueue<Interval> intervals = new ConcurrentLinkedQueue<>();

    /** The reconcile function of {@code replica}. */
    ReconcileResult reconcile(String replica, ObjectKey key, V1ConfigMap object) throws InterruptedException {
        long start = System.nanoTime();
        try {
            callTheApi();
            return ReconcileResult.done();
        } finally {
            intervals.add(new Interval(replica, key, object.getMetadata().getResourceVersion(), start,
                    System.nanoTime()));
        }
    }

    /** The simulated work: a call whose answer comes {@link #WORK} later; waits for it, or until interrupted. */
    private static void callTheApi() throws InterruptedException {
        CountDownLatch answered = new CountDownLatch(1);
        ScheduledFuture<?> answer = API.schedule(answered::countDown, WORK.toNanos(), TimeUnit.NANOSECONDS);
        try {
            answered.await();
        } catch (InterruptedException e) {
            answer.cancel(false);
            throw e;
        }
    }

    int size() {
        return intervals.size();
    }

    /** Pairs of reconciles of one key that ran at overlapping times, described. */
    List<String> overlaps() {
        Map<ObjectKey, List<Interval>> byKey = byKey();
        List<String> overlaps = new ArrayList<>();
        for (List<Interval> ofKey : byKey.values()) {
            ofKey.sort(Comparator.comparingLong(Interval::start));
            Interval latest = null; // the one that ends last among those seen
            for (Interval interval : ofKey) {
                if (latest != null && interval.start() < latest.end()) {
                    overlaps.add(interval.key() + ": " + latest.replica() + " at " + latest.resourceVersion()
                            + " and " + interval.replica() + " at " + interval.resourceVersion() + " overlap by "
                            + (latest.end() - interval.start()) / 1_000 + " µs");
                }
                if (latest == null || interval.end() > latest.end()) {
                    latest = interval;
                }
            }
        }
        return overlaps;
    }

    /** The resourceVersion each key's last reconcile (by end time, by any replica) saw. */
    Map<ObjectKey, String> lastVersions() {
        Map<ObjectKey, String> last = new HashMap<>();
        byKey().forEach((key, ofKey) -> last.put(key,
                ofKey.stream().max(Comparator.comparingLong(Interval::end)).orElseThrow().resourceVersion()));
        return last;
    }

    /** Reconciles per replica. */
    Map<String, Integer> countsByReplica() {
        Map<String, Integer> counts = new HashMap<>();
        intervals.forEach(interval -> counts.merge(interval.replica(), 1, Integer::sum));
        return counts;
    }

    private Map<ObjectKey, List<Interval>> byKey() {
        Map<ObjectKey, List<Interval>> byKey = new HashMap<>();
        for (Interval interval : intervals) {
            byKey.computeIfAbsent(interval.key(), key -> new ArrayList<>()).add(interval);
        }
        return byKey;
    }
}
