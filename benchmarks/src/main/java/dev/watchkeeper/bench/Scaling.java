package dev.watchkeeper.bench;

import java.awt.AWTError;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The scaling curve: the sync scenario's measurement ({@link SyncChild}: time to ready, steady heap, relist peak) at
 * growing numbers of small ConfigMaps ({@link ConfigMapBytes#small}, served by {@link ScalingServer}), ours and the
 * informer side by side. Each round of each implementation runs in a fresh JVM with the size's heap, one JVM at a time,
 * which exits when it runs out of heap ({@code -XX:+ExitOnOutOfMemoryError}); that is recorded, not retried. Prints the
 * table and draws the curve ({@link ScalingPlot}).
 */
final class Scaling {

    /**
     * One point of the curve.
     *
     * @param heap    the measuring JVMs' {@code -Xmx} value, e.g. {@code 12g}
     * @param warmups rounds each measuring JVM runs before the measured one
     * @param rounds  measured rounds, each in a fresh JVM per implementation
     * @param limit   how long one measuring JVM may take, warm-ups included, before it is stopped
     */
    record Size(int objects, String heap, int warmups, int rounds, Duration limit) {
    }

    private static final List<String> IMPLS = List.of("ours", "informer");
    private static final Map<String, String> LABELS = Map.of("ours", "ours: Watcher → store (pages of 500)",
            "informer", "peer: SharedIndexInformer (one list)");
    private static final Map<String, Color> COLORS = Map.of("ours", new Color(0x1f77b4), "informer",
            new Color(0xff7f0e));

    private final List<Size> sizes;
    private final Path plot;

    /** @param plot where the PNG goes */
    Scaling(List<Size> sizes, Path plot) {
        this.sizes = sizes;
        this.plot = plot;
    }

    /** The figures of one implementation at one size, or why it stopped there. */
    private static final class Outcome {
        final Stats ready = new Stats();
        final Stats steady = new Stats();
        final Stats peak = new Stats();
        final Stats relist = new Stats();
        /** Why its JVM stopped (e.g. {@code out of memory}), {@code null} while it has not. */
        String stopped;
        /** Where it stopped, e.g. {@code in the relist, round 1}. */
        String where;
    }

    void run() throws Exception {
        Map<String, Map<Size, Outcome>> outcomes = new LinkedHashMap<>();
        Map<Size, Double> jsonPerObject = new LinkedHashMap<>();
        for (String impl : IMPLS) {
            Map<Size, Outcome> bySize = new LinkedHashMap<>();
            sizes.forEach(size -> bySize.put(size, new Outcome()));
            outcomes.put(impl, bySize);
        }
        for (Size size : sizes) {
            Progress.say("scaling: %,d ConfigMaps, -Xmx%s, %d warm-up + %d measured rounds, a fresh JVM for each",
                    size.objects(), size.heap(), size.warmups(), size.rounds());
            try (ScalingServer server = new ScalingServer(size.objects())) {
                jsonPerObject.put(size, (double) server.jsonBytes() / size.objects());
                for (int round = 0; round < size.rounds(); round++) {
                    for (int j = 0; j < IMPLS.size(); j++) {
                        String impl = IMPLS.get((j + round) % IMPLS.size());
                        Outcome outcome = outcomes.get(impl).get(size);
                        if (outcome.stopped == null) {
                            measure(impl, size, server, round, outcome);
                        }
                    }
                }
            }
        }
        print(outcomes, jsonPerObject);
        draw(outcomes);
    }

    private static void measure(String impl, Size size, ScalingServer server, int round, Outcome outcome)
            throws Exception {
        List<String> flags = List.of("-Xmx" + size.heap(), "-XX:+UseG1GC", "-XX:+ExitOnOutOfMemoryError");
        boolean measuring = false;
        try (SyncChildProcess child = new SyncChildProcess(impl, server.url(), size.objects(), flags)) {
            for (int w = 0; w < size.warmups(); w++) {
                child.round(server::expire, size.limit());
            }
            measuring = true;
            long[] r = child.round(server::expire, size.limit());
            Progress.say("  %,d %s round %d: ready %,d ms, steady %s, relist peak %s, relist %,d ms", size.objects(),
                    impl, round + 1, r[0], Table.mb(r[1]), Table.mb(r[2]), r[3]);
            outcome.ready.add(r[0]);
            outcome.steady.add(r[1]);
            outcome.peak.add(r[2]);
            outcome.relist.add(r[3]);
        } catch (SyncChildProcess.Ended e) {
            outcome.stopped = e.outOfMemory() ? "out of memory" : e.overTime() ? "over " + size.limit().toMinutes()
                    + " min" : "exit " + e.exitStatus();
            outcome.where = "in the " + e.phase() + ", round " + (round + 1);
            if (measuring) {
                // it synced, then failed in the relist: what it measured of the sync stands
                e.synced().ifPresent(synced -> {
                    outcome.ready.add(synced[0]);
                    outcome.steady.add(synced[1]);
                });
            }
            Progress.say("  %,d %s: %s at -Xmx%s %s", size.objects(), impl, outcome.stopped, size.heap(),
                    outcome.where);
        }
    }

    private void print(Map<String, Map<Size, Outcome>> outcomes, Map<Size, Double> jsonPerObject) {
        Table table = new Table("Scaling — initial sync and relist memory by cache size (small ConfigMaps; each "
                + "implementation in a fresh JVM per round)",
                "objects", "implementation", "heap", "time to ready (median)", "objects/s", "steady heap", "B/object",
                "× JSON", "relist peak", "peak / steady", "relist time*", "outcome");
        for (Size size : sizes) {
            double json = jsonPerObject.get(size);
            for (String impl : IMPLS) {
                Outcome o = outcomes.get(impl).get(size);
                int n = size.objects();
                double perObject = o.steady.median() / n;
                table.row(String.format("%,d", n), LABELS.get(impl), "-Xmx" + size.heap(),
                        cell("%,.0f ms", o.ready.median()), cell("%,.0f", n / (o.ready.median() / 1000)),
                        Table.mb(o.steady.median()), cell("%,.0f", perObject), cell("%.1f×", perObject / json),
                        Table.mb(o.peak.median()), cell("%.2f×", o.peak.median() / o.steady.median()),
                        cell("%,.0f ms", o.relist.median()), o.stopped != null ? o.stopped + " " + o.where
                                : o.ready.count() + " of " + size.rounds() + " rounds");
            }
        }
        for (Size size : sizes) {
            Outcome ours = outcomes.get("ours").get(size);
            Outcome peer = outcomes.get("informer").get(size);
            table.note(String.format("%,d objects of %,.0f B of JSON each; ours vs informer: time to ready %s, steady "
                    + "heap %s, relist peak %s; %d warm-up round(s) in each measuring JVM before its measured one",
                    size.objects(), jsonPerObject.get(size), Table.ratio(ours.ready.median(), peer.ready.median()),
                    Table.ratio(ours.steady.median(), peer.steady.median()),
                    Table.ratio(ours.peak.median(), peer.peak.median()), size.warmups()));
        }
        table.note("measured as in scenario 2 (medians): steady = live heap after two full GCs once ready, minus the "
                + "heap before the client was built; relist peak = the largest live heap sampled by spaced full GCs "
                + "during a relist forced by a 410 on the open watch, minus the same baseline. Both are live sets: "
                + "an implementation needs a heap above its relist peak plus the JVM's own baseline, and G1 wants "
                + "headroom on top");
        table.note("measuring JVMs: -XX:+UseG1GC -XX:+ExitOnOutOfMemoryError and the heap column, one at a time; "
                + "a JVM that runs out of heap is recorded as such and its implementation is not run again at that "
                + "size. The objects are served from bytes rendered once (no managedFields), by a list/watch server "
                + "that pages as the real one does; the in-memory API server needs about 8 KB per object, too much for "
                + "a million");
        table.note("* relist time includes the sampler's GC pauses, so it is slower than an unobserved relist");
        table.print();
    }

    private void draw(Map<String, Map<Size, Outcome>> outcomes) {
        List<ScalingPlot.Series> series = new ArrayList<>();
        for (String impl : IMPLS) {
            List<ScalingPlot.Point> points = new ArrayList<>();
            ScalingPlot.Failure failure = null;
            for (Size size : sizes) {
                Outcome o = outcomes.get(impl).get(size);
                if (o.ready.count() > 0) {
                    points.add(new ScalingPlot.Point(size.objects(), o.ready.median(),
                            o.steady.median() / size.objects(), o.peak.median()));
                }
                if (o.stopped != null) {
                    failure = new ScalingPlot.Failure(size.objects(), o.stopped + " at -Xmx" + size.heap());
                    break; // the line ends where the implementation first stopped
                }
            }
            series.add(new ScalingPlot.Series(LABELS.get(impl), COLORS.get(impl), points, failure));
        }
        try {
            ScalingPlot.write(plot, "Initial sync and relist of n small ConfigMaps (~500 B of JSON each)",
                    ScalingPlot.SCALING, series);
            Progress.say("scaling: plot written to %s", plot.toAbsolutePath());
        } catch (IOException | RuntimeException | LinkageError | AWTError | InternalError e) {
            // The table above is the scenario's result; a machine without fonts can still print it.
            Progress.say("scaling: the plot was not written to %s: %s", plot.toAbsolutePath(), e);
        }
    }

    /** {@code value} formatted, or a dash when there is none (an implementation that stopped). */
    private static String cell(String format, double value) {
        return Double.isNaN(value) ? "–" : String.format(format, value);
    }
}
