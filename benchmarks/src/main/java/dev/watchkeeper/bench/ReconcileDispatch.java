package dev.watchkeeper.bench;

import dev.watchkeeper.controller.Controller;
import dev.watchkeeper.controller.ControllerSettings;
import dev.watchkeeper.controller.ReconcileResult;
import dev.watchkeeper.resource.ResourceType;
import dev.watchkeeper.store.ObjectKey;
import dev.watchkeeper.watch.Watcher;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Scenario 4: our {@link Controller} (8 workers over its {@code WorkQueue}) with a no-op reconciler, fed by a watcher
 * on an in-process {@link SyntheticWatchApi}. Run A enqueues every key once per round; run B streams 10 updates
 * per key through the watcher while the workers process, so updates to a queued or running key must coalesce.
 */
final class ReconcileDispatch {

    private static final int WORKERS = 8;
    private static final int UPDATES_PER_KEY = 10;

    private final int keys;
    private final int warmups;
    private final int rounds;

    private final AtomicLong reconciles = new AtomicLong();
    private final AtomicIntegerArray running;
    private final AtomicInteger maxPerKey = new AtomicInteger();
    private final AtomicInteger active = new AtomicInteger();
    private final AtomicInteger maxActive = new AtomicInteger();
    private final AtomicLongArray enqueuedAt;
    private final long[] latencies;
    private final AtomicInteger latencyCount = new AtomicInteger();
    private volatile boolean recordLatency;

    ReconcileDispatch(int keys, int warmups, int rounds) {
        this.keys = keys;
        this.warmups = warmups;
        this.rounds = rounds;
        this.running = new AtomicIntegerArray(keys);
        this.enqueuedAt = new AtomicLongArray(keys);
        this.latencies = new long[keys];
    }

    private ReconcileResult reconcile(V1ConfigMap object) {
        int i = SyntheticWatchApi.index(object.getMetadata().getName());
        if (recordLatency) {
            int slot = latencyCount.getAndIncrement();
            if (slot < latencies.length) {
                latencies[slot] = System.nanoTime() - enqueuedAt.get(i);
            }
        }
        int perKey = running.incrementAndGet(i);
        maxPerKey.accumulateAndGet(perKey, Math::max);
        maxActive.accumulateAndGet(active.incrementAndGet(), Math::max);
        active.decrementAndGet();
        running.decrementAndGet(i);
        reconciles.incrementAndGet();
        return ReconcileResult.done();
    }

    void run() throws Exception {
        Progress.say("scenario 4: %,d keys, %d workers, no-op reconciler; %d warm-up + %d measured rounds per run",
                keys, WORKERS, warmups, rounds);
        SyntheticWatchApi api = new SyntheticWatchApi(keys);
        Stats dispatch = new Stats();
        Stats p50 = new Stats();
        Stats p99 = new Stats();
        Stats coalesced = new Stats();
        Stats updateRate = new Stats();
        Stats updateReconciles = new Stats();
        Watcher<V1ConfigMap> watcher = Watcher.builder(api, ResourceType.of(V1ConfigMap.class)).build();
        Controller<V1ConfigMap> controller = Controller.builder("dispatch", watcher,
                        (V1ConfigMap object, dev.watchkeeper.controller.ReconcileContext context) -> reconcile(object))
                .settings(ControllerSettings.defaults().withConcurrency(WORKERS)).build();
        try {
            watcher.start();
            controller.start();
            if (!watcher.store().awaitReady(Duration.ofMinutes(2))) {
                throw new IllegalStateException("the synthetic watcher never became ready");
            }
            awaitCount(keys, Duration.ofMinutes(2));
            for (int round = 0; round < warmups + rounds; round++) {
                // Run A: every key enqueued once, from one thread, while 8 workers take them.
                reconciles.set(0);
                latencyCount.set(0);
                recordLatency = true;
                long start = System.nanoTime();
                for (int i = 0; i < keys; i++) {
                    enqueuedAt.set(i, System.nanoTime());
                    controller.enqueue(new ObjectKey("bench", SyntheticWatchApi.name(i)));
                }
                awaitCount(keys, Duration.ofMinutes(2));
                double rate = keys / ((System.nanoTime() - start) / 1e9);
                recordLatency = false;
                long[] sorted = Arrays.copyOf(latencies, Math.min(latencyCount.get(), latencies.length));
                Arrays.sort(sorted);
                // Run B: every key enqueued, then 10 updates per key through the watcher while the workers process
                // them: an update to a queued key must coalesce, one to a running key must rerun it once after.
                reconciles.set(0);
                long events = (long) keys * UPDATES_PER_KEY;
                long before = api.emitted();
                long startB = System.nanoTime();
                api.emit((int) events);
                for (int i = 0; i < keys; i++) {
                    controller.enqueue(new ObjectKey("bench", SyntheticWatchApi.name(i)));
                }
                while (api.emitted() - before < events) {
                    Thread.sleep(1);
                }
                long lastChange = System.nanoTime();
                long last = -1;
                while (System.nanoTime() - lastChange < 300_000_000L) {
                    long now = reconciles.get();
                    if (now != last) {
                        last = now;
                        lastChange = System.nanoTime();
                    }
                    Thread.sleep(5);
                }
                double seconds = (lastChange - startB) / 1e9;
                boolean measured = round >= warmups;
                Progress.say("  round %d%s: A %,.0f reconciles/s (p50 %.1f ms, p99 %.1f ms); B %,d adds + %,d updates → "
                                + "%,d reconciles in %.2f s", round + 1, measured ? "" : " (warm-up)", rate,
                        percentile(sorted, 50) / 1e6, percentile(sorted, 99) / 1e6, keys, events, last, seconds);
                if (measured) {
                    dispatch.add(rate);
                    p50.add(percentile(sorted, 50) / 1e6);
                    p99.add(percentile(sorted, 99) / 1e6);
                    updateRate.add(events / seconds);
                    updateReconciles.add(last);
                    coalesced.add(100.0 * (events + keys - last) / (events + keys));
                }
            }
        } finally {
            controller.close(Duration.ofSeconds(5));
            Clients.close(watcher);
        }
        Table table = new Table(String.format("Scenario 4 — reconcile dispatch (%,d keys, %d workers, no-op reconciler)",
                keys, WORKERS),
                "run", "ops/s (median)", "spread", "p50", "p99", "reconciles", "duplicates suppressed",
                "max concurrent of one key", "max concurrent");
        table.row("ours: Controller, each key enqueued once", String.format("%,.0f reconciles/s", dispatch.median()),
                dispatch.spread(), String.format("%.1f ms", p50.median()), String.format("%.1f ms", p99.median()),
                String.format("%,d", keys), "–", maxPerKey.get(), maxActive.get());
        table.row(String.format("ours: keys enqueued + %d updates per key through the watcher", UPDATES_PER_KEY),
                String.format("%,.0f updates/s", updateRate.median()), updateRate.spread(), "–", "–",
                String.format("%,.0f of %,d", updateReconciles.median(), (long) keys * (UPDATES_PER_KEY + 1)),
                String.format("%.0f%%", coalesced.median()), maxPerKey.get(), maxActive.get());
        table.note("duplicates suppressed = (adds + updates − reconciles) / (adds + updates); ops/s of run B = updates "
                + "delivered through the watcher per second until the queue is idle");
        table.note(String.format("%d measured rounds after %d warm-up; p50/p99 = enqueue → reconcile start while "
                + "all %,d keys are queued at once (queueing time)", rounds, warmups, keys));
        table.note(String.format("goal ≥ 100,000 no-op dispatches/s: %s (%.2f×); one key never reconciled twice at "
                + "once: %s", dispatch.median() >= 100_000 ? "met" : "MISSED", dispatch.median() / 100_000,
                maxPerKey.get() == 1 ? "held" : "VIOLATED"));
        table.note("peer not run: client-java-extended exists only at 25.0.0 and was not brought in beside "
                + "client-java 27 in this run (see RESULTS.md)");
        table.print();
    }

    private void awaitCount(long target, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (reconciles.get() < target) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("only " + reconciles.get() + " of " + target + " reconciles");
            }
            Thread.onSpinWait();
            Thread.sleep(0, 200_000);
        }
    }

    private static double percentile(long[] sorted, int p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p / 100.0 * sorted.length) - 1)];
    }
}
