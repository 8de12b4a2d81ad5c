package dev.watchkeeper.bench;

import dev.watchkeeper.internal.shard.Slots;
import dev.watchkeeper.internal.watch.ShardFilter;
import dev.watchkeeper.internal.watch.Watcher;
import dev.watchkeeper.internal.watch.http.HttpWatchApi;
import dev.watchkeeper.internal.resource.ResourceType;
import dev.watchkeeper.watch.WatcherPhase;
import dev.watchkeeper.watch.WatcherSnapshot;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

/**
 * The sharding scenario's measuring JVM: one replica's primary watcher, sharded by object uid and given one share of
 * the slots, as its coordinator would give them, so it lists (and caches) only that share through the server's
 * {@code shardSelector}. Each round (on {@code GO}): sync from scratch, check the store holds the share's objects,
 * measure the heap after full GCs and print {@code RESULT readyMillis steadyBytes requests bytes serverFiltered}
 * (the list requests and response bytes of the sync; 1 when its list said the server filtered), then close the
 * watcher.
 */
final class ShardChild {

    private static final Duration TIMEOUT = Duration.ofMinutes(10);

    private ShardChild() {
    }

    /** Arguments: the server's url, the objects in the share, the share's {@link Slots#low()} and {@code high()}. */
    static void main(List<String> args) throws Exception {
        String url = args.get(0);
        int expected = Integer.parseInt(args.get(1));
        Slots slots = new Slots(Long.parseLong(args.get(2)), Long.parseLong(args.get(3)));
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        Clients.apiClient(url); // load the client's classes before the first baseline
        String command;
        boolean first = true;
        while ((command = in.readLine()) != null && command.equals("GO")) {
            if (!first) {
                Thread.sleep(1500); // let the last watcher's threads end, so this baseline does not hold its cache
            }
            first = false;
            long[] result = round(url, expected, slots);
            System.out.printf("RESULT %d %d %d %d %d%n", result[0], result[1], result[2], result[3], result[4]);
            System.out.flush();
        }
        System.exit(0);
    }

    private static long[] round(String url, int expected, Slots slots) throws Exception {
        long baseline = HeapTracker.usedAfterGc();
        ApiClient client = Clients.apiClient(url);
        TrafficCounter traffic = TrafficCounter.on(client);
        long start = System.nanoTime();
        Watcher<V1ConfigMap> watcher = HttpWatchApi.watcher(client, ResourceType.of(V1ConfigMap.class))
                .shardFilter(ShardFilter.BY_OBJECT_UID).build();
        try {
            watcher.start();
            watcher.reshard(slots);
            if (!watcher.store().awaitReady(TIMEOUT)) {
                throw new IllegalStateException("not ready within " + TIMEOUT);
            }
            long ready = System.nanoTime() - start;
            if (watcher.store().size() != expected) {
                throw new IllegalStateException("the store holds " + watcher.store().size() + " objects, the share "
                        + slots + " has " + expected);
            }
            long steady = HeapTracker.usedAfterGc() - baseline;
            WatcherSnapshot snapshot = watching(watcher);
            TrafficCounter.Traffic sync = traffic.lists();
            boolean serverFiltered = snapshot.shard().mode() == WatcherSnapshot.Shard.Mode.SERVER;
            return new long[] {ready / 1_000_000, steady, sync.requests(), sync.bytes(), serverFiltered ? 1 : 0};
        } finally {
            Clients.close(watcher);
        }
    }

    /** The watcher's snapshot once it says who filtered its list: the store is ready a moment before. */
    private static WatcherSnapshot watching(Watcher<V1ConfigMap> watcher) throws InterruptedException {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        WatcherSnapshot snapshot;
        while ((snapshot = watcher.snapshot()).phase() != WatcherPhase.WATCHING
                || snapshot.shard().mode() == WatcherSnapshot.Shard.Mode.UNKNOWN) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("not watching within " + TIMEOUT + ": " + snapshot);
            }
            Thread.sleep(5);
        }
        return snapshot;
    }
}
