package dev.watchkeeper.bench;

import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * What the dispatch scenario's no-op reconciler records for one implementation: how many reconciles ran, how many of one key
 * and how many overall ran at once, and the time from enqueue to reconcile start. Each implementation has its own,
 * so the peer and ours never share a counter.
 */
final class DispatchProbe {

    private final AtomicLong reconciles = new AtomicLong();
    private final AtomicIntegerArray running;
    private final AtomicInteger maxPerKey = new AtomicInteger();
    private final AtomicInteger active = new AtomicInteger();
    private final AtomicInteger maxActive = new AtomicInteger();
    private final AtomicLongArray enqueuedAt;
    private final long[] latencies;
    private final AtomicInteger latencyCount = new AtomicInteger();
    private volatile boolean recordLatency;

    DispatchProbe(int keys) {
        this.running = new AtomicIntegerArray(keys);
        this.enqueuedAt = new AtomicLongArray(keys);
        this.latencies = new long[keys * ReconcileDispatch.PASSES];
    }

    /** The reconciler's whole body: count, and check that key {@code key} is not already being reconciled. */
    void reconcile(int key) {
        if (recordLatency) {
            int slot = latencyCount.getAndIncrement();
            if (slot < latencies.length) {
                latencies[slot] = System.nanoTime() - enqueuedAt.get(key);
            }
        }
        int perKey = running.incrementAndGet(key);
        maxPerKey.accumulateAndGet(perKey, Math::max);
        maxActive.accumulateAndGet(active.incrementAndGet(), Math::max);
        active.decrementAndGet();
        running.decrementAndGet(key);
        reconciles.incrementAndGet();
    }

    /** Called just before key {@code key} is enqueued, for the enqueue → reconcile-start latency. */
    void enqueuing(int key) {
        enqueuedAt.set(key, System.nanoTime());
    }

    /** Starts a run: zero the count and the maxima; record latencies if asked. */
    void startRun(boolean withLatency) {
        reconciles.set(0);
        maxPerKey.set(0);
        maxActive.set(0);
        latencyCount.set(0);
        recordLatency = withLatency;
    }

    /** Stops recording latencies and returns those recorded since {@link #startRun}, sorted. */
    long[] sortedLatencies() {
        recordLatency = false;
        long[] sorted = Arrays.copyOf(latencies, Math.min(latencyCount.get(), latencies.length));
        Arrays.sort(sorted);
        return sorted;
    }

    long reconciles() {
        return reconciles.get();
    }

    int maxPerKey() {
        return maxPerKey.get();
    }

    int maxActive() {
        return maxActive.get();
    }

    void awaitCount(long target, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (reconciles.get() < target) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("only " + reconciles.get() + " of " + target + " reconciles");
            }
            Thread.onSpinWait();
            Thread.sleep(0, 200_000);
        }
    }

    /**
     * Waits until no reconcile has run for {@code quiet} and returns when the last one was seen (nanoTime). Run B
     * cannot wait for a known count: how many reconciles the updates cause is what it measures.
     */
    long awaitIdle(Duration quiet) throws InterruptedException {
        long lastChange = System.nanoTime();
        long last = -1;
        while (System.nanoTime() - lastChange < quiet.toNanos()) {
            long now = reconciles.get();
            if (now != last) {
                last = now;
                lastChange = System.nanoTime();
            }
            Thread.sleep(5);
        }
        return lastChange;
    }

    static double percentile(long[] sorted, int p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p / 100.0 * sorted.length) - 1)];
    }
}
