package dev.watchkeeper.bench;

import dev.watchkeeper.internal.resource.ResourceType;
import dev.watchkeeper.test.apiserver.InMemoryApiServer;
import dev.watchkeeper.test.apiserver.ServedRequest;
import dev.watchkeeper.internal.watch.Watcher;
import dev.watchkeeper.internal.watch.http.HttpWatchApi;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.openapi.models.V1SecretList;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Scenario 3: one in-memory API server answers 503 to everything for a while, then recovers. Our watcher (on
 * ConfigMaps) and client-java's informer (on Secrets) run at once against it; the requests each sends are
 * timestamped by polling the server's request log every 5 ms. One round: it is a real-time scenario.
 */
final class OutageLoad {

    private record Stamp(long nanos, ServedRequest request) {
    }

    private final Duration outage;

    OutageLoad(Duration outage) {
        this.outage = outage;
    }

    void run() throws Exception {
        Progress.say("scenario 3: a %d s outage (503 for every request), both clients at once", outage.toSeconds());
        try (InMemoryApiServer server = new InMemoryApiServer().start()) {
            for (int i = 0; i < 10; i++) {
                server.create(new V1ConfigMap().metadata(new V1ObjectMeta().name("cm-" + i).namespace("bench"))
                        .data(Map.of("k", "v")));
                server.create(new V1Secret().metadata(new V1ObjectMeta().name("secret-" + i).namespace("bench"))
                        .stringData(Map.of("k", "v")));
            }
            ApiClient client = server.apiClient();
            SharedInformerFactory factory = new SharedInformerFactory(client);
            SharedIndexInformer<V1Secret> informer = factory.sharedIndexInformerFor(
                    new GenericKubernetesApi<>(V1Secret.class, V1SecretList.class, "", "v1", "secrets", client),
                    V1Secret.class, 0L);
            Watcher<V1ConfigMap> watcher = HttpWatchApi.watcher(server.apiClient(), ResourceType.of(V1ConfigMap.class))
                    .build();
            try {
                watcher.start();
                factory.startAllRegisteredInformers();
                watcher.store().awaitReady(Duration.ofSeconds(30));
                while (!informer.hasSynced()) {
                    Thread.sleep(10);
                }
                Thread.sleep(2000);
                List<Stamp> stamps = new ArrayList<>();
                int seen = server.requests().size();
                long start = System.nanoTime();
                server.outage(outage);
                long recoverAt = start + outage.toNanos();
                long recovered = 0;
                long end = recoverAt + Duration.ofSeconds(90).toNanos();
                long lastProgress = start;
                while (System.nanoTime() < end) {
                    long now = System.nanoTime();
                    if (recovered == 0 && now >= recoverAt) {
                        server.endOutage();
                        recovered = System.nanoTime();
                    }
                    List<ServedRequest> all = server.requests();
                    for (int i = seen; i < all.size(); i++) {
                        stamps.add(new Stamp(now, all.get(i)));
                    }
                    seen = all.size();
                    if (recovered != 0 && watchedAfter(stamps, "configmaps", recovered)
                            && watchedAfter(stamps, "secrets", recovered)) {
                        Thread.sleep(500);
                        break;
                    }
                    if (now - lastProgress > Duration.ofSeconds(30).toNanos()) {
                        Progress.say("  … %d s", Duration.ofNanos(now - start).toSeconds());
                        lastProgress = now;
                    }
                    Thread.sleep(5);
                }
                report(stamps, start, recovered, watcher);
            } finally {
                factory.stopAllRegisteredInformers();
                Clients.close(watcher);
            }
        }
    }

    private void report(List<Stamp> stamps, long start, long recovered, Watcher<V1ConfigMap> watcher) {
        Table table = new Table(String.format("Scenario 3 — outage load (every request answered 503 for %d s, then "
                + "recovery; both clients at once, one round)", outage.toSeconds()),
                "implementation", "requests during outage", "requests/min", "recovery → next watch", "goal");
        long[] oursRow = row(stamps, "configmaps", start, recovered);
        long[] peerRow = row(stamps, "secrets", start, recovered);
        double minutes = outage.toSeconds() / 60.0;
        boolean oursOk = oursRow[0] <= 12 * Math.max(1, minutes / 3) && oursRow[1] >= 0 && oursRow[1] <= 61_000;
        table.row("ours: Watcher (configmaps)", oursRow[0], String.format("%.1f", oursRow[0] / minutes),
                recovery(oursRow[1]), (outage.toMinutes() >= 3 ? "≤ 12 requests, ≤ 60 s + 1 request: " : "≤ 12/3 min, ≤ 60 s: ")
                        + (oursOk ? "met" : "MISSED"));
        table.row("peer: SharedIndexInformer (secrets)", peerRow[0], String.format("%.1f", peerRow[0] / minutes),
                recovery(peerRow[1]), "–");
        table.note(String.format("ours/informer requests: %s", Table.ratio(oursRow[0], peerRow[0])));
        table.note("our request times during the outage (s after it began), the interval since the previous one, and "
                + "the backoff range client-go's curve allows for that attempt (0.8 s × 2ⁿ, jitter 1.0, cap 30 s):");
        List<Stamp> ours = stamps.stream().filter(s -> "configmaps".equals(s.request().plural())
                && s.nanos() >= start && s.nanos() < recovered).toList();
        StringBuilder intervals = new StringBuilder();
        for (int i = 0; i < ours.size(); i++) {
            double at = (ours.get(i).nanos() - start) / 1e9;
            String range = "";
            String gap = "";
            if (i > 0) {
                gap = String.format(" +%.2f s", (ours.get(i).nanos() - ours.get(i - 1).nanos()) / 1e9);
                double low = Math.min(0.8 * Math.pow(2, i - 1), 30);
                range = String.format(" (expected [%.1f, %.1f))", low, 2 * low);
            }
            intervals.append(String.format("%n    %2d. %7.2f s%s%s  %s", i + 1, at, gap, range,
                    ours.get(i).request().isWatch() ? "watch" : "list"));
        }
        table.note(intervals.toString());
        table.note("our watcher afterwards: " + watcher.snapshot().phase() + ", synced " + watcher.snapshot().synced());
        if (outage.toMinutes() < 3) {
            table.note("--quick shortens the outage to " + outage.toSeconds() + " s (the full run uses 3 minutes); "
                    + "the request goal is scaled to 12 per 3 minutes");
        }
        table.print();
    }

    private static String recovery(long millis) {
        return millis < 0 ? "none within 90 s" : String.format("%.2f s", millis / 1000.0);
    }

    /** {requests during the outage, ms from recovery to the first watch request after it (-1 if none)}. */
    private static long[] row(List<Stamp> stamps, String plural, long start, long recovered) {
        long during = stamps.stream().filter(s -> plural.equals(s.request().plural()) && s.nanos() >= start
                && s.nanos() < recovered).count();
        long recovery = stamps.stream().filter(s -> plural.equals(s.request().plural()) && s.nanos() >= recovered
                && s.request().isWatch()).mapToLong(s -> (s.nanos() - recovered) / 1_000_000).findFirst().orElse(-1);
        return new long[] {during, recovery};
    }

    private static boolean watchedAfter(List<Stamp> stamps, String plural, long recovered) {
        return stamps.stream().anyMatch(s -> plural.equals(s.request().plural()) && s.nanos() >= recovered
                && s.request().isWatch());
    }
}
