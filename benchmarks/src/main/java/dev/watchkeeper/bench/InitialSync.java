package dev.watchkeeper.bench;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.watchkeeper.test.apiserver.InMemoryApiServer;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Scenario 2: n ConfigMaps on the in-memory API server (in this JVM); each implementation runs in a JVM of its own
 * ({@link SyncChild}) so its heap is its own. Rounds alternate between the two JVMs; the first is a warm-up.
 */
final class InitialSync {

    static final String CHILD_HEAP_FULL = "-Xmx6g";
    static final String CHILD_HEAP_QUICK = "-Xmx1g";
    /** Longer than {@link SyncChild}'s own time-outs (a sync and a relist): the measuring JVM reports them itself. */
    private static final Duration ROUND_LIMIT = Duration.ofMinutes(25);

    private final int objects;
    private final int warmups;
    private final int rounds;
    private final String heapFlag;

    InitialSync(int objects, int warmups, int rounds) {
        this.objects = objects;
        this.warmups = warmups;
        this.rounds = rounds;
        this.heapFlag = objects > 20_000 ? CHILD_HEAP_FULL : CHILD_HEAP_QUICK;
    }

    void run() throws Exception {
        List<String> impls = List.of("ours", "informer");
        Map<String, String> labels = Map.of("ours", "ours: Watcher → store (pages of 500)",
                "informer", "peer: SharedIndexInformer (one list)");
        Map<String, Stats[]> stats = new LinkedHashMap<>();
        impls.forEach(i -> stats.put(i, new Stats[] {new Stats(), new Stats(), new Stats(), new Stats(), new Stats(),
            new Stats(), new Stats()}));
        long jsonBytes = 0;
        try (InMemoryApiServer server = new InMemoryApiServer().start()) {
            Progress.say("scenario 2: creating %,d ConfigMaps on the in-memory server", objects);
            for (int i = 0; i < objects; i++) {
                String json = ConfigMapBytes.object(i, "1");
                jsonBytes += json.length();
                JsonObject object = JsonParser.parseString(json).getAsJsonObject();
                JsonObject metadata = object.getAsJsonObject("metadata");
                metadata.remove("resourceVersion");
                metadata.remove("uid");
                metadata.remove("creationTimestamp");
                server.create(object);
            }
            Map<String, SyncChildProcess> children = new LinkedHashMap<>();
            for (String impl : impls) {
                children.put(impl, new SyncChildProcess(impl, server.url(), objects, List.of(heapFlag,
                        "-XX:+UseG1GC", "-D" + SyncChild.READ_ONCE_PROPERTY + "=true")));
            }
            // Move the server's resourceVersion past the ConfigMaps' (a Secret nobody watches), then compact: the
            // ConfigMap watch gets 410 whether it is already open (an ERROR event) or opens a moment later (410 at
            // start), so the relist never depends on timing.
            Runnable forceRelist = () -> {
                server.create(new V1Secret().metadata(new V1ObjectMeta().namespace("bench")
                        .name("bump-" + System.nanoTime())));
                server.compact();
            };
            try {
                for (int round = 0; round < warmups + rounds; round++) {
                    for (int j = 0; j < impls.size(); j++) {
                        String impl = impls.get((j + round) % impls.size());
                        long[] r = children.get(impl).round(forceRelist, ROUND_LIMIT);
                        boolean measured = round >= warmups;
                        Progress.say("  %s round %d%s: ready %,d ms, steady %s, relist peak %s, relist %,d ms "
                                        + "(%d live-heap samples, %,d ms in their GCs), every object read once %s",
                                impl, round + 1, measured ? "" : " (warm-up)", r[0], Table.mb(r[1]), Table.mb(r[2]),
                                r[3], r[4], r[5], Table.mb(r[6]));
                        if (measured) {
                            for (int k = 0; k < r.length; k++) {
                                stats.get(impl)[k].add(r[k]);
                            }
                        }
                    }
                }
            } finally {
                children.values().forEach(SyncChildProcess::close);
            }
        }
        double jsonPerObject = (double) jsonBytes / objects;
        Table table = new Table(String.format("Scenario 2 — initial sync and relist memory (%,d ConfigMaps, %,.0f B of "
                + "JSON each; each implementation in its own JVM, %s)", objects, jsonPerObject, heapFlag),
                "implementation", "time to ready (median)", "spread", "objects/s", "steady heap", "B/object",
                "× JSON", "relist peak", "peak / steady", "relist time*", "B/object, every object read once");
        Stats[] peer = stats.get("informer");
        for (String impl : impls) {
            Stats[] s = stats.get(impl);
            double perObject = s[1].median() / objects;
            table.row(labels.get(impl), String.format("%,.0f ms", s[0].median()), s[0].spread(),
                    String.format("%,.0f", objects / (s[0].median() / 1000)), Table.mb(s[1].median()),
                    String.format("%,.0f", perObject), String.format("%.1f×", perObject / jsonPerObject),
                    Table.mb(s[2].median()), String.format("%.2f×", s[2].median() / s[1].median()),
                    String.format("%,.0f ms", s[3].median()), String.format("%,.0f", s[6].median() / objects));
        }
        Stats[] ours = stats.get("ours");
        double ratio = ours[2].median() / ours[1].median();
        table.note(String.format("%d measured rounds after %d warm-up, the two JVMs alternate; medians. Steady = heap "
                + "after two full GCs once ready, minus the heap before the client was built; relist peak = the largest "
                + "live heap (heap used right after a full GC) seen during a relist forced by compaction (410 on the "
                + "open watch), minus the same baseline", rounds, warmups));
        table.note(String.format("live heap sampled by a full GC, then a pause of max(%d ms, %d× that GC's pause), so "
                + "the sampler stops the client at most 1/%d of the relist; median samples per relist: ours %.0f, "
                + "informer %.0f; median time in the sampler's GCs: ours %,.0f ms, informer %,.0f ms",
                SyncChild.SAMPLER_MIN_GAP_MILLIS, SyncChild.SAMPLER_GAP_PER_PAUSE, SyncChild.SAMPLER_GAP_PER_PAUSE + 1,
                stats.get("ours")[4].median(), stats.get("informer")[4].median(), stats.get("ours")[5].median(),
                stats.get("informer")[5].median()));
        table.note(String.format("ours vs informer: time to ready %s, steady heap %s, relist peak %s",
                Table.ratio(ours[0].median(), peer[0].median()), Table.ratio(ours[1].median(), peer[1].median()),
                Table.ratio(ours[2].median(), peer[2].median())));
        table.note(String.format("goal ours relist peak ≤ 1.2× steady: %s (%.2f×; informer %.2f×)",
                ratio <= 1.2 ? "met" : "MISSED", ratio, peer[2].median() / peer[1].median()));
        table.note("every object read once = the heap after the relist once every object has been read (list(), then "
                + "each one's data), after full GCs, per object: ours then holds each read object's decoded model "
                + "instead of its bytes (it keeps a model once decoded); the informer holds models all along");
        table.note("* relist time includes the sampler's GC pauses (above), so it is slower than an unobserved relist");
        table.print();
    }
}
