package dev.watchkeeper.bench;

import com.google.gson.Gson;
import com.google.gson.reflect.TypeToken;
import dev.watchkeeper.internal.reconcile.Reconciler;
import dev.watchkeeper.reconcile.ReconcileContext;
import dev.watchkeeper.reconcile.ReconcileResult;
import dev.watchkeeper.internal.resource.ResourceType;
import dev.watchkeeper.watch.WatchEvent;
import dev.watchkeeper.watch.WatchEventListener;
import dev.watchkeeper.internal.watch.Watcher;
import dev.watchkeeper.internal.watch.http.HttpWatchApi;
import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.util.Watch;
import java.io.ByteArrayOutputStream;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Scenario 1: one watch of n ADDED/MODIFIED events of ~2.1 KB ConfigMaps over loopback, from the byte-replaying
 * server, timed from the moment the server starts streaming until the consumer has handled the last event.
 */
final class WatchThroughput {

    private static final Type RESPONSE = new TypeToken<Watch.Response<V1ConfigMap>>() { }.getType();
    private static final long TIMEOUT_SECONDS = 600;

    /** One implementation: consume events 0..n-1, return the {@link System#nanoTime()} of the last. */
    private interface Impl {
        long run(ConfigMapBytes bytes, int n, ReplayServer server) throws Exception;
    }

    private final int events;
    private final int names;
    private final int warmups;
    private final int rounds;

    WatchThroughput(int events, int names, int warmups, int rounds) {
        this.events = events;
        this.names = names;
        this.warmups = warmups;
        this.rounds = rounds;
    }

    void run() throws Exception {
        ConfigMapBytes bytes = new ConfigMapBytes(names);
        Map<String, Impl> impls = new LinkedHashMap<>();
        impls.put("floor A: Gson from memory", WatchThroughput::floorGson);
        impls.put("floor B: client-java Watch", WatchThroughput::floorWatch);
        impls.put("peer: SharedIndexInformer", WatchThroughput::informer);
        impls.put("ours: Watcher → store", WatchThroughput::ours);
        impls.put("ours: Watcher → store → Reconciler", WatchThroughput::oursWithController);
        impls.put("ours: Watcher → store → a consumer that reads every object once", WatchThroughput::oursReadingObjects);
        String only = System.getProperty("bench.only");
        if (only != null) {
            impls.keySet().removeIf(name -> !name.contains(only));
        }
        List<String> names = new ArrayList<>(impls.keySet());
        Map<String, Stats> rate = new LinkedHashMap<>();
        Map<String, Stats> peak = new LinkedHashMap<>();
        Map<String, Stats> live = new LinkedHashMap<>();
        Map<String, Stats> gc = new LinkedHashMap<>();
        Map<String, Stats> allocated = new LinkedHashMap<>();
        names.forEach(n -> {
            allocated.put(n, new Stats());
            gc.put(n, new Stats());
            rate.put(n, new Stats());
            peak.put(n, new Stats());
            live.put(n, new Stats());
        });
        long lineBytes = bytes.event(0).length;
        Progress.say("scenario 1: %,d events of %,d B over %,d objects; %d warm-up + %d measured rounds each",
                events, lineBytes, this.names, warmups, rounds);
        try (HeapTracker heap = new HeapTracker()) {
            for (int round = 0; round < warmups + rounds; round++) {
                for (int j = 0; j < names.size(); j++) {
                    String name = names.get((j + round) % names.size());
                    long baseline = HeapTracker.usedAfterGc();
                    long gcBefore = gcMillis();
                    long cpuBefore = System.nanoTime();
                    heap.start();
                    double perSecond = once(impls.get(name), bytes);
                    long[] peaks = heap.stop();
                    double gcShare = (gcMillis() - gcBefore) * 1e6 / (System.nanoTime() - cpuBefore);
                    boolean measured = round >= warmups;
                    Progress.say("  %s round %d%s: %,.0f events/s", name, round + 1, measured ? "" : " (warm-up)",
                            perSecond);
                    if (measured) {
                        rate.get(name).add(perSecond);
                        peak.get(name).add(Math.max(0, peaks[0] - baseline));
                        live.get(name).add(Math.max(0, peaks[1] - baseline));
                        gc.get(name).add(100 * gcShare);
                        allocated.get(name).add((double) Allocations.allocated() / events);
                    }
                }
            }
        }
        if (only != null) {
            return;
        }
        double floorA = rate.get(names.get(0)).median();
        double floorB = rate.get(names.get(1)).median();
        double peer = rate.get(names.get(2)).median();
        Table table = new Table(String.format("Scenario 1 — watch throughput (%,d events, %,d B/event, %d objects)",
                events, lineBytes, this.names),
                "implementation", "events/s (median)", "spread", "range", "heap peak", "live peak (after GC)", "allocated/event",
                "GC pauses",
                "× floor A", "× floor B", "× informer");
        for (String name : names) {
            Stats s = rate.get(name);
            table.row(name, String.format("%,.0f", s.median()), s.spread(), s.range("%,.0f"),
                    Table.mb(peak.get(name).median()), Table.mb(live.get(name).median()),
                    String.format("%,.0f B", allocated.get(name).median()),
                    String.format("%.0f%%", gc.get(name).median()),
                    Table.ratio(s.median(), floorA), Table.ratio(s.median(), floorB), Table.ratio(s.median(), peer));
        }
        double ours = rate.get(names.get(3)).median();
        double withController = rate.get(names.get(4)).median();
        double reading = rate.get(names.get(5)).median();
        table.note(String.format("%d measured rounds after %d warm-up, implementations alternate (order rotates "
                + "each round); the same bytes for all; heap columns are above the post-GC baseline, medians", rounds,
                warmups));
        table.note(String.format("goal ours ≥ 1.0× floor B: %s (%.2f×; with the controller %.2f×); ours ≥ 2× informer: "
                + "%s (%.2f×; with the controller %.2f×)", ours >= floorB ? "met" : "MISSED", ours / floorB,
                withController / floorB, ours >= 2 * peer ? "met" : "MISSED", ours / peer, withController / peer));
        table.note(String.format("the reading row: a listener after the store takes every event's object and reads the "
                + "size of its data, so decoding cannot leave the measurement; goal ≥ 1.0× floor B: %s (%.2f×)",
                reading >= floorB ? "met" : "MISSED", reading / floorB));
        table.note("the controller row: a Reconciler with a no-op reconciler (default concurrency) on the watcher; "
                + "timed until the last event has been enqueued, while its workers reconcile");
        table.note("allocated/event = bytes allocated by all threads (the replaying server's included, from "
                + "HotSpot's per-thread counters) until the last event, per event; it does not drift with load");
        table.note("GC pauses = collection time reported by the JVM's collectors as a share of the round's wall time");
        table.note("p50/p99 latency does not apply: the stream is a backlog, so per-event latency is queueing time");
        table.print();
    }

    private static long gcMillis() {
        long total = 0;
        for (var bean : java.lang.management.ManagementFactory.getGarbageCollectorMXBeans()) {
            total += Math.max(0, bean.getCollectionTime());
        }
        return total;
    }

    private double once(Impl impl, ConfigMapBytes bytes) throws Exception {
        try (ReplayServer server = new ReplayServer(bytes, events)) {
            Allocations.start();
            long start = System.nanoTime();
            long end = impl.run(bytes, events, server);
            if (server.streamStartNanos() != 0) {
                start = server.streamStartNanos();
            }
            return events / ((end - start) / 1e9);
        }
    }

    /** Floor A: decode each line as client-java's Watch does (a String, then Gson), without HTTP. */
    private static long floorGson(ConfigMapBytes bytes, int n, ReplayServer unused) throws Exception {
        Gson gson = Clients.apiClient("http://127.0.0.1:1").getJSON().getGson();
        ByteArrayOutputStream buffer = new ByteArrayOutputStream(4096);
        long sink = 0;
        for (int i = 0; i < n; i++) {
            buffer.reset();
            bytes.writeEvent(buffer, i);
            String line = new String(buffer.toByteArray(), 0, buffer.size() - 1, StandardCharsets.UTF_8);
            Watch.Response<V1ConfigMap> response = gson.fromJson(line, RESPONSE);
            sink += response.object.getMetadata().getName().length();
        }
        if (sink == 0) {
            throw new IllegalStateException("nothing decoded");
        }
        return Allocations.end();
    }

    /** Floor B: client-java's Watch over HTTP, doing nothing with the objects. */
    private static long floorWatch(ConfigMapBytes bytes, int n, ReplayServer server) throws Exception {
        ApiClient client = Clients.apiClient(server.url());
        int count = 0;
        try (Watch<V1ConfigMap> watch = Watch.createWatch(client,
                new CoreV1Api(client).listConfigMapForAllNamespaces().watch(true).buildCall(null), RESPONSE)) {
            for (Watch.Response<V1ConfigMap> ignored : watch) {
                if (++count == n) {
                    return Allocations.end();
                }
            }
        }
        throw new IllegalStateException("the watch ended after " + count + " of " + n + " events");
    }

    /** Peer: client-java's SharedIndexInformer with a handler that counts. */
    private static long informer(ConfigMapBytes bytes, int n, ReplayServer server) throws Exception {
        ApiClient client = Clients.apiClient(server.url());
        SharedInformerFactory factory = new SharedInformerFactory(client);
        SharedIndexInformer<V1ConfigMap> informer = Clients.informer(factory, client);
        Counter counter = new Counter(n);
        informer.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(V1ConfigMap obj) {
                counter.hit();
            }

            @Override
            public void onUpdate(V1ConfigMap oldObj, V1ConfigMap newObj) {
                counter.hit();
            }

            @Override
            public void onDelete(V1ConfigMap obj, boolean deletedFinalStateUnknown) {
            }
        });
        factory.startAllRegisteredInformers();
        try {
            return counter.await();
        } finally {
            factory.stopAllRegisteredInformers();
        }
    }

    /** Ours: the watcher feeding its store, and a listener (after the store) that counts. */
    private static long ours(ConfigMapBytes bytes, int n, ReplayServer server) throws Exception {
        Counter counter = new Counter(n);
        Watcher<V1ConfigMap> watcher = HttpWatchApi.watcher(Clients.apiClient(server.url()),
                ResourceType.of(V1ConfigMap.class)).build();
        try {
            watcher.addListener(counter.listener());
            watcher.start();
            long end = counter.await();
            if (watcher.store().size() != Math.min(n, bytes.names())) {
                throw new IllegalStateException("store holds " + watcher.store().size() + " objects");
            }
            return end;
        } finally {
            Clients.close(watcher);
        }
    }

    /** Ours with a controller: its listener enqueues each key, then a listener after it counts. */
    private static long oursWithController(ConfigMapBytes bytes, int n, ReplayServer server) throws Exception {
        Counter counter = new Counter(n);
        Watcher<V1ConfigMap> watcher = HttpWatchApi.watcher(Clients.apiClient(server.url()),
                ResourceType.of(V1ConfigMap.class)).build();
        Reconciler<V1ConfigMap> controller = Reconciler.builder("throughput", watcher,
                (V1ConfigMap object, ReconcileContext context) -> ReconcileResult.done()).build();
        try {
            controller.start();
            watcher.addListener(counter.listener());
            watcher.start();
            return counter.await();
        } finally {
            controller.close();
            Clients.close(watcher);
        }
    }

    /**
     * Ours with a consumer that reads every object once: a listener (after the store) asks each event for its object
     * and reads its data, so a cache that decodes on demand pays its decoding inside the measurement.
     */
    private static long oursReadingObjects(ConfigMapBytes bytes, int n, ReplayServer server) throws Exception {
        Counter counter = new Counter(n);
        long[] dataEntries = new long[1];
        Watcher<V1ConfigMap> watcher = HttpWatchApi.watcher(Clients.apiClient(server.url()),
                ResourceType.of(V1ConfigMap.class)).build();
        try {
            watcher.addListener(event -> {
                if (event instanceof WatchEvent.Apply<V1ConfigMap> apply) {
                    dataEntries[0] += apply.object().getData().size();
                    counter.hit();
                }
            });
            watcher.start();
            long end = counter.await();
            if (dataEntries[0] < n) {
                // every object carries data: fewer entries than objects means some object was not read
                throw new IllegalStateException("read " + dataEntries[0] + " data entries from " + n + " objects");
            }
            return end;
        } finally {
            Clients.close(watcher);
        }
    }

    /** Counts on one thread; records the time of the n-th hit. */
    private static final class Counter {
        private final int target;
        private final CountDownLatch done = new CountDownLatch(1);
        private int count;
        private volatile long endNanos;

        /** Counts Apply events; it reads no object, so none is decoded for it. */
        WatchEventListener<V1ConfigMap> listener() {
            return Clients.readingNoObjects(event -> {
                if (event instanceof WatchEvent.Apply<V1ConfigMap>) {
                    hit();
                }
            });
        }

        Counter(int target) {
            this.target = target;
        }

        void hit() {
            if (++count == target) {
                endNanos = Allocations.end();
                done.countDown();
            }
        }

        long await() throws InterruptedException {
            if (!done.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                throw new IllegalStateException("only " + count + " of " + target + " events within "
                        + TIMEOUT_SECONDS + " s");
            }
            return endNanos;
        }
    }
}
