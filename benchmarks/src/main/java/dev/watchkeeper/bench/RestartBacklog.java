package dev.watchkeeper.bench;

import dev.watchkeeper.internal.reconcile.Reconciler;
import dev.watchkeeper.internal.watch.EventStream;
import dev.watchkeeper.internal.watch.ListPage;
import dev.watchkeeper.internal.watch.ListRequest;
import dev.watchkeeper.internal.watch.WatchApi;
import dev.watchkeeper.internal.watch.WatchRequest;
import dev.watchkeeper.internal.watch.Watcher;
import dev.watchkeeper.internal.watch.WireEvent;
import dev.watchkeeper.reconcile.ReconcileContext;
import dev.watchkeeper.reconcile.ReconcileResult;
import dev.watchkeeper.internal.reconcile.ReconcilerSettings;
import dev.watchkeeper.internal.resource.ResolvedResource;
import dev.watchkeeper.internal.resource.ResourceType;
import dev.watchkeeper.store.CachedObject;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Scenario 8: a restart's backlog against the objects created meanwhile. A reconciler (default concurrency) starts
 * on a cache of {@code listed} objects, each reconcile about 1 ms of simulated work, while new objects are created at
 * {@value #CREATIONS_PER_SECOND}/s; measured: the time from a new object's creation to the start of its reconcile,
 * the time the backlog takes to drain, and the longest any listed key waited. Once with the priority queue
 * (listed keys LOW, created ones NORMAL, {@code max-low-priority-wait} at its default) and once as one FIFO
 * ({@code max-low-priority-wait=0}), on an in-process watch API: no HTTP, no JSON, the queue is what differs.
 */
final class RestartBacklog {

    private static final int CREATIONS_PER_SECOND = 10;
    private static final long WORK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private final int listed;
    /** Creations go on at least this long, so a small backlog still yields a sample. */
    private final Duration minimumCreating;

    RestartBacklog(int listed, Duration minimumCreating) {
        this.listed = listed;
        this.minimumCreating = minimumCreating;
    }

    /** One mode's figures. */
    private record Result(String mode, double drainSeconds, double maxListedWaitSeconds, long[] latencyNanos) {

        double percentileMillis(double p) {
            if (latencyNanos.length == 0) {
                return Double.NaN;
            }
            long[] sorted = latencyNanos.clone();
            Arrays.sort(sorted);
            int index = (int) Math.ceil(p / 100 * sorted.length) - 1;
            return sorted[Math.max(0, Math.min(sorted.length - 1, index))] / 1e6;
        }
    }

    void run() throws Exception {
        Progress.say("scenario 8: restart with %,d objects (≈1 ms of work each, %d workers), %d new objects/s",
                listed, ReconcilerSettings.DEFAULT_CONCURRENCY, CREATIONS_PER_SECOND);
        ReconcilerSettings defaults = ReconcilerSettings.defaults();
        List<Result> results = new ArrayList<>();
        results.add(measure("priorities (max-low-priority-wait " + ReconcilerSettings.DEFAULT_MAX_LOW_PRIORITY_WAIT
                + ")", defaults));
        System.gc();
        results.add(measure("one FIFO (max-low-priority-wait 0)", defaults.withMaxLowPriorityWait(Duration.ZERO)));
        print(results, defaults.maxLowPriorityWait());
    }

    private Result measure(String mode, ReconcilerSettings settings) throws Exception {
        BacklogApi api = new BacklogApi(listed);
        Map<String, Long> createdAt = new ConcurrentHashMap<>();
        long[] listedWait = new long[listed];
        AtomicInteger listedDone = new AtomicInteger();
        AtomicLong readyAt = new AtomicLong();
        CountDownLatch drained = new CountDownLatch(1);
        AtomicLong drainedAt = new AtomicLong();
        List<Long> latencies = java.util.Collections.synchronizedList(new ArrayList<>());
        Watcher<V1ConfigMap> watcher = Watcher.builder(api, ResourceType.of(V1ConfigMap.class)).build();
        Reconciler<V1ConfigMap> reconciler = Reconciler.builder("backlog", watcher,
                (V1ConfigMap object, ReconcileContext context) -> {
                    long now = System.nanoTime();
                    readyAt.compareAndSet(0, now); // the workers start once the store is ready
                    String name = object.getMetadata().getName();
                    Long created = createdAt.remove(name);
                    if (created != null) {
                        latencies.add(now - created);
                    } else if (name.startsWith("listed-")) {
                        int index = Integer.parseInt(name, "listed-".length(), name.length(), 10);
                        if (listedWait[index] == 0) {
                            listedWait[index] = now - readyAt.get();
                            if (listedDone.incrementAndGet() == listed) {
                                drainedAt.set(now);
                                drained.countDown();
                            }
                        }
                    }
                    LockSupport.parkNanos(WORK_NANOS); // the simulated work: a reconcile waits for its API calls
                    return ReconcileResult.done();
                }).settings(settings).build();
        try {
            reconciler.start();
            watcher.start();
            if (!watcher.store().awaitReady(Duration.ofMinutes(2))) {
                throw new IllegalStateException("the backlog's watcher never became ready");
            }
            readyAt.compareAndSet(0, System.nanoTime()); // unless a worker was first: the backlog is all queued
            long start = readyAt.get();
            long period = TimeUnit.SECONDS.toNanos(1) / CREATIONS_PER_SECOND;
            int created = 0;
            while (drained.getCount() > 0 || System.nanoTime() - start < minimumCreating.toNanos()) {
                long next = start + created * period;
                LockSupport.parkNanos(next - System.nanoTime());
                String name = "new-" + created++;
                createdAt.put(name, System.nanoTime());
                api.create(name);
            }
            if (!drained.await(10, TimeUnit.MINUTES)) {
                throw new IllegalStateException("the backlog never drained");
            }
            double drain = (drainedAt.get() - start) / 1e9;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!createdAt.isEmpty() && System.nanoTime() < deadline) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10)); // the last creations' reconciles
            }
            double maxListed = Arrays.stream(listedWait).max().orElse(0) / 1e9;
            long[] latency;
            synchronized (latencies) {
                latency = latencies.stream().mapToLong(Long::longValue).toArray();
            }
            Progress.say("  %s: backlog drained in %.1f s, %d new objects", mode, drain, latency.length);
            return new Result(mode, drain, maxListed, latency);
        } finally {
            reconciler.close(Duration.ofSeconds(5));
            Clients.close(watcher);
        }
    }

    private void print(List<Result> results, Duration maxLowWait) {
        Table table = new Table(String.format("Scenario 8 — restart backlog (%,d objects in the cache, ≈1 ms of work "
                + "each, %d workers; %d new objects/s meanwhile)", listed, ReconcilerSettings.DEFAULT_CONCURRENCY,
                CREATIONS_PER_SECOND), "queue", "new objects", "creation → reconcile p50", "p99", "max",
                "backlog drained", "× one FIFO", "longest wait of a listed key");
        Result fifo = results.get(results.size() - 1);
        for (Result r : results) {
            table.row(r.mode(), r.latencyNanos().length, millis(r.percentileMillis(50)),
                    millis(r.percentileMillis(99)), millis(r.percentileMillis(100)),
                    String.format("%.2f s", r.drainSeconds()), Table.ratio(r.drainSeconds(), fifo.drainSeconds()),
                    String.format("%.2f s", r.maxListedWaitSeconds()));
        }
        Result priorities = results.get(0);
        table.note(String.format("goal with priorities: p99 < 1 s: %s (%.0f ms); backlog drained no more than 5 %% "
                + "slower than one FIFO: %s (%s)", priorities.percentileMillis(99) < 1_000 ? "met" : "not met",
                priorities.percentileMillis(99), priorities.drainSeconds() <= fifo.drainSeconds() * 1.05 ? "met"
                        : "not met", Table.ratio(priorities.drainSeconds(), fifo.drainSeconds())));
        table.note(String.format("listed keys are LOW, created ones NORMAL; once the oldest LOW key has waited %d s "
                + "(max-low-priority-wait) the two lines take turns, so the backlog keeps draining at least at half "
                + "speed even under a flood of changes; the longest wait of a listed key is the backlog's own length, "
                + "not a starvation", maxLowWait.toSeconds()));
        table.note("times from the moment the store is ready (the workers start); creations start then, one "
                + "round per mode, in one JVM; work is a 1 ms park, so the 8 workers overlap as reconciles waiting for "
                + "the API server would");
        table.print();
    }

    /** Milliseconds, with a decimal below ten. */
    private static String millis(double value) {
        return String.format(value < 10 ? "%.1f ms" : "%,.0f ms", value);
    }

    /** Lists {@code listed} objects, then watches the objects {@link #create created} since. */
    private static final class BacklogApi implements WatchApi<V1ConfigMap> {

        private final int listed;
        private final BlockingQueue<V1ConfigMap> created = new LinkedBlockingQueue<>();
        private final AtomicLong resourceVersion = new AtomicLong(1);

        BacklogApi(int listed) {
            this.listed = listed;
        }

        void create(String name) {
            created.add(object(name, Long.toString(resourceVersion.incrementAndGet())));
        }

        @Override
        public ResolvedResource resolve() {
            return new ResolvedResource("", "v1", "configmaps", true);
        }

        @Override
        public ListPage<V1ConfigMap> list(ResolvedResource resource, ListRequest request) {
            List<CachedObject<V1ConfigMap>> items = new ArrayList<>(listed);
            for (int i = 0; i < listed; i++) {
                items.add(CachedObject.of(object("listed-" + i, "1")));
            }
            return new ListPage<>(items, "1", null, List.of());
        }

        @Override
        public EventStream<V1ConfigMap> watch(ResolvedResource resource, WatchRequest request) {
            return new EventStream<>() {
                private volatile boolean closed;

                @Override
                public WireEvent<V1ConfigMap> next() throws java.io.IOException {
                    try {
                        V1ConfigMap object = null;
                        while (object == null && !closed) {
                            object = created.poll(50, TimeUnit.MILLISECONDS);
                        }
                        if (object == null) {
                            return null;
                        }
                        return new WireEvent.Change<>(WireEvent.ChangeType.ADDED, CachedObject.of(object),
                                object.getMetadata().getResourceVersion());
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new java.io.InterruptedIOException("closed");
                    }
                }

                @Override
                public void clearDeadline() {
                }

                @Override
                public void close() {
                    closed = true;
                }
            };
        }

        @Override
        public void abort() {
        }

        private static V1ConfigMap object(String name, String rv) {
            return new V1ConfigMap().metadata(new V1ObjectMeta().namespace("bench").name(name).resourceVersion(rv)
                    .uid(name)).data(Map.of("k", rv));
        }
    }
}
