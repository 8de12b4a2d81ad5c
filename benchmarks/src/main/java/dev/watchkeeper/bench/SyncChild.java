package dev.watchkeeper.bench;

import dev.watchkeeper.internal.resource.ResourceType;
import dev.watchkeeper.watch.WatchEvent;
import dev.watchkeeper.internal.watch.Watcher;
import dev.watchkeeper.internal.watch.http.HttpWatchApi;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Scenario 2's measuring JVM: one implementation, one heap, driven by the parent over standard input/output.
 * Each round (on {@code GO}): sync from scratch and time it, measure the steady heap after full GCs, print
 * {@code TRIGGER readyMillis steadyBytes} and wait for the relist the parent forces (410), sampling the live heap with spaced full GCs
 * ({@link GcSampler}) while it runs, then (if asked) read every object once and measure the heap again, print
 * {@code RESULT readyMillis steadyBytes peakBytes relistMillis samples samplerGcMillis readOnceBytes} (0 when not
 * asked) and close the client.
 */
final class SyncChild {

    private static final Duration TIMEOUT = Duration.ofMinutes(10);
    /** {@code -Dbench.sync.readOnce=true}: after the relist, read every object once and measure the heap again. */
    static final String READ_ONCE_PROPERTY = "bench.sync.readOnce";
    private static final boolean READ_ONCE = Boolean.getBoolean(READ_ONCE_PROPERTY);
    /** The least pause between two of {@link GcSampler}'s full GCs. */
    static final long SAMPLER_MIN_GAP_MILLIS = 100;
    /** {@link GcSampler} waits this many times as long as its last full GC paused the client. */
    static final int SAMPLER_GAP_PER_PAUSE = 4;

    private SyncChild() {
    }

    static void main(List<String> args) throws Exception {
        String impl = args.get(0);
        String url = args.get(1);
        int n = Integer.parseInt(args.get(2));
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        // Load the classes of both clients before the first baseline.
        Clients.apiClient(url);
        String command;
        while ((command = in.readLine()) != null && command.equals("GO")) {
            long[] result = impl.equals("ours") ? ours(url, n) : informer(url, n);
            Thread.sleep(1500); // let the closed client's threads end, so the next baseline does not hold its cache
            System.out.printf("RESULT %d %d %d %d %d %d %d%n", result[0], result[1], result[2], result[3], result[4],
                    result[5], result[6]);
            System.out.flush();
        }
        System.exit(0);
    }

    private static long[] ours(String url, int n) throws Exception {
        long baseline = HeapTracker.usedAfterGc();
        AtomicInteger inits = new AtomicInteger();
        CountDownLatch relisted = new CountDownLatch(1);
        long start = System.nanoTime();
        Watcher<V1ConfigMap> watcher = HttpWatchApi.watcher(Clients.apiClient(url), ResourceType.of(V1ConfigMap.class))
                .build();
        try {
            watcher.addListener(Clients.readingNoObjects(event -> {
                if (event instanceof WatchEvent.Init<V1ConfigMap>) {
                    inits.incrementAndGet();
                } else if (event instanceof WatchEvent.InitDone<V1ConfigMap> && inits.get() >= 2) {
                    relisted.countDown();
                }
            }));
            watcher.start();
            if (!watcher.store().awaitReady(TIMEOUT)) {
                throw new IllegalStateException("not ready within " + TIMEOUT);
            }
            long ready = System.nanoTime() - start;
            check(watcher.store().size(), n);
            long steady = HeapTracker.usedAfterGc() - baseline;
            GcSampler sampler = new GcSampler();
            long relistStart = System.nanoTime();
            trigger(ready / 1_000_000, steady);
            if (!relisted.await(TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                throw new IllegalStateException("no relist within " + TIMEOUT);
            }
            long relist = System.nanoTime() - relistStart;
            long[] sampled = sampler.stop();
            check(watcher.store().size(), n);
            long readOnce = READ_ONCE ? readEveryObject(watcher.store().list(), n) - baseline : 0;
            return new long[] {ready / 1_000_000, steady, sampled[0] - baseline, relist / 1_000_000, sampled[1],
                    sampled[2], readOnce};
        } finally {
            Clients.close(watcher);
        }
    }

    private static long[] informer(String url, int n) throws Exception {
        long baseline = HeapTracker.usedAfterGc();
        ApiClient client = Clients.apiClient(url);
        SharedInformerFactory factory = new SharedInformerFactory(client);
        SharedIndexInformer<V1ConfigMap> informer = Clients.informer(factory, client);
        long start = System.nanoTime();
        factory.startAllRegisteredInformers();
        try {
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (!informer.hasSynced() || informer.getIndexer().list().size() < n) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("not synced within " + TIMEOUT);
                }
                Thread.sleep(1);
            }
            long ready = System.nanoTime() - start;
            long steady = HeapTracker.usedAfterGc() - baseline;
            // The informer says nothing when a relist has replaced its cache (resync is off, so no handler
            // calls): watch the identities of the cached objects instead. The map's own heap is subtracted.
            Map<String, Integer> identities = new HashMap<>(n * 2);
            for (V1ConfigMap object : informer.getIndexer().list()) {
                identities.put(object.getMetadata().getName(), System.identityHashCode(object));
            }
            long apparatus = Math.max(0, HeapTracker.usedAfterGc() - baseline - steady);
            GcSampler sampler = new GcSampler();
            long relistStart = System.nanoTime();
            trigger(ready / 1_000_000, steady);
            // Each check copies and walks the whole cache, so it runs every 100 ms: often enough for a relist that
            // takes seconds, rarely enough not to compete with it.
            while (!replaced(informer, identities)) {
                if (System.nanoTime() > deadline + TIMEOUT.toNanos()) {
                    throw new IllegalStateException("no relist within " + TIMEOUT);
                }
                Thread.sleep(100);
            }
            long relist = System.nanoTime() - relistStart;
            long[] sampled = sampler.stop();
            long readOnce = READ_ONCE ? readEveryObject(informer.getIndexer().list(), n) - baseline - apparatus : 0;
            return new long[] {ready / 1_000_000, steady, sampled[0] - baseline - apparatus, relist / 1_000_000,
                    sampled[1], sampled[2], readOnce};
        } finally {
            factory.stopAllRegisteredInformers();
        }
    }

    private static boolean replaced(SharedIndexInformer<V1ConfigMap> informer, Map<String, Integer> identities) {
        List<V1ConfigMap> objects = informer.getIndexer().list();
        if (objects.size() < identities.size()) {
            return false;
        }
        for (V1ConfigMap object : objects) {
            Integer before = identities.get(object.getMetadata().getName());
            if (before != null && before == System.identityHashCode(object)) {
                return false;
            }
        }
        return true;
    }

    /** Reads every object's data once (ours decodes each object then); returns the heap used after full GCs. */
    private static long readEveryObject(List<V1ConfigMap> objects, int n) {
        check(objects.size(), n);
        long entries = 0;
        for (V1ConfigMap object : objects) {
            entries += object.getData().size();
        }
        if (entries < n) {
            throw new IllegalStateException("read " + entries + " data entries from " + n + " objects");
        }
        return HeapTracker.usedAfterGc();
    }

    private static void check(int size, int n) {
        if (size != n) {
            throw new IllegalStateException("cache holds " + size + " objects, expected " + n);
        }
    }

    /** Reports the sync's figures and asks the parent to force a relist. */
    private static void trigger(long readyMillis, long steadyBytes) {
        System.out.println("TRIGGER " + readyMillis + " " + steadyBytes);
        System.out.flush();
    }

    /**
     * The live heap during a relist, sampled by full GCs on a thread of its own. Each full GC stops the client, so
     * after one that paused it for p the sampler waits max({@link #SAMPLER_MIN_GAP_MILLIS},
     * {@link #SAMPLER_GAP_PER_PAUSE} × p): it then stops the client for at most 1 / (1 + SAMPLER_GAP_PER_PAUSE) of
     * the relist, instead of all of it as back-to-back GCs did (one 100,000-object relist took 144 s that way).
     * Every sample is a true live set; the cost is that a peak shorter than the gap can fall between two samples.
     */
    private static final class GcSampler {
        private volatile boolean running = true;
        private volatile long peak;
        private volatile int samples;
        private volatile long pauseNanos;
        private final Thread thread;

        GcSampler() {
            thread = new Thread(() -> {
                while (running) {
                    long start = System.nanoTime();
                    System.gc();
                    long pause = System.nanoTime() - start;
                    long used = HeapTracker.used();
                    if (used > peak) {
                        peak = used;
                    }
                    samples++;
                    pauseNanos += pause;
                    try {
                        Thread.sleep(Math.max(SAMPLER_MIN_GAP_MILLIS, SAMPLER_GAP_PER_PAUSE * pause / 1_000_000));
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "gc-sampler");
            thread.setDaemon(true);
            thread.start();
        }

        /** Stops sampling; returns {peak live bytes, samples taken, milliseconds spent in the sampler's GCs}. */
        long[] stop() throws InterruptedException {
            running = false;
            thread.interrupt();
            thread.join();
            return new long[] {peak, samples, pauseNanos / 1_000_000};
        }
    }
}
