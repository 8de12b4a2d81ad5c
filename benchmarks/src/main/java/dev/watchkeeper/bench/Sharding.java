package dev.watchkeeper.bench;

import dev.watchkeeper.internal.shard.SlotAssignment;
import dev.watchkeeper.internal.shard.Slots;
import java.awt.AWTError;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * The sharding scenario. <b>Heap</b>: at each size, for 1, 2 and 4 replicas, each replica's primary watcher syncs the
 * share of the slots {@link SlotAssignment} gives it among members {@code r0..r(N-1)} from {@link ScalingServer}
 * (which honours {@code shardSelector}), in a fresh JVM of its own ({@link ShardChild}), and its cache heap is
 * compared with the single replica's. <b>Moves</b>: replicas with real coordinators in this JVM go 3 → 4 → 3
 * ({@link ShardMoves}), with the server's filter and with the client's. Prints the tables and draws the per-replica
 * heap beside the scaling curve ({@link ScalingPlot}).
 */
final class Sharding {

    /**
     * One size of the heap measurement.
     *
     * @param heap    the measuring JVMs' {@code -Xmx}, the same for every replica count
     * @param warmups rounds each measuring JVM runs before the measured one
     * @param limit   how long one measuring JVM may take
     */
    record Size(int objects, String heap, int warmups, Duration limit) {
    }

    /** One replica's measured sync of its share. */
    record Share(String identity, Slots slots, int objects, long readyMillis, long heapBytes, long requests,
            long bytes, boolean serverFiltered) {
    }

    private static final List<Integer> REPLICAS = List.of(1, 2, 4);
    /** The goal: each replica's heap at most 1/N + 0.15 of one replica's. */
    private static final double GOAL_MARGIN = 0.15;
    /** The goal for a join or a leave to settle. */
    private static final Duration SETTLE_GOAL = Duration.ofSeconds(30);
    private static final Map<Integer, Color> COLORS = Map.of(1, new Color(0x1f77b4), 2, new Color(0xff7f0e), 4,
            new Color(0x2ca02c));

    private final List<Size> sizes;
    private final int movesObjects;
    private final Path plot;

    /** @param movesObjects the ConfigMaps of the join and leave; @param plot where the PNG goes */
    Sharding(List<Size> sizes, int movesObjects, Path plot) {
        this.sizes = sizes;
        this.movesObjects = movesObjects;
        this.plot = plot;
    }

    void run() throws Exception {
        Map<Size, Map<Integer, List<Share>>> heaps = new LinkedHashMap<>();
        for (Size size : sizes) {
            heaps.put(size, heaps(size));
        }
        List<ShardMoves.Run> runs = List.of(new ShardMoves(movesObjects, true).run(),
                new ShardMoves(movesObjects, false).run());
        printHeaps(heaps);
        printMoves(runs);
        printTraffic(runs);
        draw(heaps);
    }

    private static Map<Integer, List<Share>> heaps(Size size) throws Exception {
        Progress.say("sharding: %,d ConfigMaps, replicas %s, each replica in a fresh JVM (-Xmx%s, %d warm-up round)",
                size.objects(), REPLICAS, size.heap(), size.warmups());
        Map<Integer, List<Share>> byReplicas = new LinkedHashMap<>();
        try (ScalingServer server = new ScalingServer(size.objects())) {
            for (int n : REPLICAS) {
                List<String> members = IntStream.range(0, n).mapToObj(i -> "r" + i).toList();
                SlotAssignment assignment = SlotAssignment.of(members);
                List<Share> shares = new ArrayList<>();
                for (String member : members) {
                    Slots slots = assignment.slotsOf(member);
                    shares.add(measure(server, size, member, slots, server.count(slots)));
                }
                byReplicas.put(n, shares);
            }
        }
        return byReplicas;
    }

    private static Share measure(ScalingServer server, Size size, String member, Slots slots, int objects)
            throws Exception {
        List<String> flags = List.of("-Xmx" + size.heap(), "-XX:+UseG1GC", "-XX:+ExitOnOutOfMemoryError");
        List<String> args = List.of("shard-child", server.url(), Integer.toString(objects),
                Long.toString(slots.low()), Long.toString(slots.high()));
        try (SyncChildProcess child = new SyncChildProcess(args, flags)) {
            for (int w = 0; w < size.warmups(); w++) {
                child.round(() -> { }, size.limit());
            }
            long[] r = child.round(() -> { }, size.limit());
            Share share = new Share(member, slots, objects, r[0], r[1], r[2], r[3], r[4] == 1);
            Progress.say("  %s of %,d (%d slots, %,d objects): ready %,d ms, cache heap %s, %,d requests, %,d bytes",
                    member, size.objects(), slots.size(), objects, r[0], Table.mb(r[1]), r[2], r[3]);
            return share;
        } catch (SyncChildProcess.Ended e) {
            throw new IllegalStateException("replica " + member + " of " + size.objects() + " objects: "
                    + e.getMessage(), e);
        }
    }

    private static void printHeaps(Map<Size, Map<Integer, List<Share>>> heaps) {
        Table replicas = new Table("Sharding — each replica's cache heap (small ConfigMaps, served filtered by "
                + "shardSelector; each replica in a fresh JVM)", "objects", "replicas", "replica", "slots",
                "objects held", "time to ready", "cache heap", "B/object held", "÷ single", "list requests",
                "bytes received", "filtered by");
        Table summary = new Table("Sharding — each replica's cache heap ÷ the single replica's", "objects",
                "replicas", "largest share of the objects", "heap ÷ single: max", "mean", "goal: max ≤ 1/N + 0.15",
                "verdict");
        heaps.forEach((size, byReplicas) -> {
            double single = byReplicas.get(1).get(0).heapBytes();
            byReplicas.forEach((n, shares) -> {
                double max = 0;
                double sum = 0;
                int largest = 0;
                for (Share share : shares) {
                    double ratio = share.heapBytes() / single;
                    max = Math.max(max, ratio);
                    sum += ratio;
                    largest = Math.max(largest, share.objects());
                    replicas.row(String.format("%,d", size.objects()), n, share.identity(),
                            share.slots().size(), String.format("%,d", share.objects()),
                            String.format("%,d ms", share.readyMillis()), Table.mb(share.heapBytes()),
                            String.format("%,.0f", (double) share.heapBytes() / share.objects()),
                            String.format("%.3f", ratio), String.format("%,d", share.requests()),
                            String.format("%,d", share.bytes()), share.serverFiltered() ? "server" : "client");
                }
                double goal = 1.0 / n + GOAL_MARGIN;
                summary.row(String.format("%,d", size.objects()), n,
                        String.format("%.3f", largest / (double) size.objects()), String.format("%.3f", max),
                        String.format("%.3f", sum / shares.size()), String.format("≤ %.3f", goal),
                        max <= goal ? "met" : "not met");
            });
        });
        replicas.note("cache heap = live heap after two full GCs once the watcher is ready, minus the heap before it "
                + "was built (as the scaling curve measures it), in a fresh JVM per replica with -XX:+UseG1GC and the "
                + "size's -Xmx; the replica's watcher is sharded by object uid and given the slots SlotAssignment "
                + "computes for members r0..r(N-1), as its coordinator would");
        replicas.note("list requests and bytes received = the list pages of 500 (each with the replica's "
                + "shardSelector) and their response body bytes, counted on the replica's client by an OkHttp network "
                + "interceptor; 'filtered by server' = its lists said so in metadata.shardInfo");
        summary.note("largest share = the objects of the replica with the most slots ÷ all objects. A replica's heap "
                + "follows its share, and the share follows the slots rendezvous hashing gives its identity: r0, r1 "
                + "split the 128 slots 64/64 and four replicas 33/31/35/29, while other identities split less evenly "
                + "(replica-0, replica-1: 77/51, docs/sharding.md)");
        replicas.print();
        summary.print();
    }

    private static void printMoves(List<ShardMoves.Run> runs) {
        ShardMoves.Run first = runs.get(0);
        Table table = new Table(String.format("Sharding — join and leave with %,d ConfigMaps (replicas with real "
                + "coordinators in one JVM, in-memory API server, lease %d s / renew %d s / retry %.1f s)",
                first.objects(), ShardMoves.LEASE.toSeconds(), ShardMoves.RENEW_DEADLINE.toSeconds(),
                ShardMoves.RETRY.toMillis() / 1000.0), "filter", "step", "replicas", "slots moved", "objects moved",
                "time to settle", "goal < 30 s", "reconciles of one key at overlapping times (whole run)");
        for (ShardMoves.Run run : runs) {
            for (ShardMoves.Step step : run.steps()) {
                boolean change = !step.name().equals("start");
                table.row(run.serverFilter() ? "server" : "client", step.name(), step.replicasBefore() + " → "
                        + step.replicasAfter(), change ? String.format("%.3f", step.slotsMoved()) : "–",
                        change ? String.format("%,d (%.3f)", step.objectsMoved(), step.objectsMoved()
                                / (double) run.objects()) : String.format("%,d listed", run.objects()),
                        String.format("%,d ms", step.settle().toMillis()), change ? step.settle().compareTo(
                                SETTLE_GOAL) < 0 ? "met" : "not met" : "–",
                        run.overlaps().size() + (run.doubleActive().isEmpty() ? "" : "; slots active twice: "
                                + run.doubleActive().size()));
            }
        }
        for (ShardMoves.Run run : runs) {
            table.note(String.format("%s filter: %,d reconciles logged (1 ms of work each, 4 workers a replica), "
                    + "%d of one key by two replicas at overlapping times, %d slots announced active while another "
                    + "replica had them; watchers' filter mode at the end %s", run.serverFilter() ? "server"
                    : "client", run.reconciles(), run.overlaps().size(), run.doubleActive().size(), run.modes()));
            run.overlaps().stream().limit(5).forEach(overlap -> table.note("overlap: " + overlap));
            run.doubleActive().stream().limit(5).forEach(twice -> table.note("active twice: " + twice));
        }
        table.note("start = r0, r1, r2 started at once; join = r3 starts; leave = r3 closes (drains, releases its "
                + "member Lease); time to settle = from that call until every replica's coordinator is settled on "
                + "the new members' epoch with no hand-over in progress, its active slots exactly its assignment "
                + "(so each slot active on one replica), and its primary watcher synced to those slots and holding "
                + "their objects (polled every 10 ms)");
        table.note("moved = slots (objects) whose owner in SlotAssignment differs before and after; the objects are "
                + "counted from their uids");
        table.print();
    }

    private static void printTraffic(List<ShardMoves.Run> runs) {
        List<String> header = new ArrayList<>(List.of("filter", "replica"));
        for (ShardMoves.Step step : runs.get(0).steps()) {
            header.addAll(List.of(step.name() + ": lists", step.name() + ": watches", step.name() + ": bytes"));
        }
        header.add("Lease and other requests (all steps)");
        Table table = new Table("Sharding — what the API server sent each replica, server filter vs client filter",
                header.toArray(String[]::new));
        for (ShardMoves.Run run : runs) {
            String filter = run.serverFilter() ? "server" : "client";
            List<TrafficCounter.Usage> totals = new ArrayList<>();
            run.steps().forEach(step -> totals.add(TrafficCounter.Usage.NONE));
            long otherTotal = 0;
            for (String identity : ShardMoves.identities(run)) {
                List<Object> cells = new ArrayList<>(List.of(filter, identity));
                long other = 0;
                for (int s = 0; s < run.steps().size(); s++) {
                    TrafficCounter.Usage usage = run.steps().get(s).traffic().get(identity);
                    if (usage == null) {
                        cells.addAll(List.of("–", "–", "–"));
                        continue;
                    }
                    cells.addAll(usageCells(usage));
                    other += usage.other().requests();
                    totals.set(s, totals.get(s).plus(usage));
                }
                otherTotal += other;
                cells.add(String.format("%,d", other));
                table.row(cells.toArray());
            }
            List<Object> cells = new ArrayList<>(List.of(filter, "all"));
            totals.forEach(total -> cells.addAll(usageCells(total)));
            cells.add(String.format("%,d", otherTotal));
            table.row(cells.toArray());
        }
        table.note("lists = ConfigMap list requests (pages of 500), watches = ConfigMap watch requests, bytes = the "
                + "response body bytes of both as read off the connection, counted per replica client by an OkHttp "
                + "network interceptor; a watch or list that starts right after the replicas settled counts in the "
                + "next step. The other requests are the member Leases' lists, creates and renewals (every retry "
                + "period, every quarter of it while handing over) and discovery");
        table.note("with the client filter every reshard relists every object; with the server's, only the new share "
                + "(the whole share, not only the slots gained)");
        table.print();
    }

    private static List<String> usageCells(TrafficCounter.Usage usage) {
        return List.of(String.format("%,d", usage.lists().requests()), String.format("%,d", usage.watches()
                .requests()), String.format("%,d", usage.lists().bytes() + usage.watches().bytes()));
    }

    private void draw(Map<Size, Map<Integer, List<Share>>> heaps) {
        List<ScalingPlot.Series> series = new ArrayList<>();
        for (int n : REPLICAS) {
            List<ScalingPlot.Point> points = new ArrayList<>();
            heaps.forEach((size, byReplicas) -> {
                double single = byReplicas.get(1).get(0).heapBytes();
                List<Share> shares = byReplicas.get(n);
                double mean = shares.stream().mapToLong(Share::heapBytes).average().orElseThrow();
                double max = shares.stream().mapToLong(Share::heapBytes).max().orElseThrow();
                double slowest = shares.stream().mapToLong(Share::readyMillis).max().orElseThrow();
                points.add(new ScalingPlot.Point(size.objects(), mean, max / single, slowest));
            });
            series.add(new ScalingPlot.Series(n == 1 ? "1 replica" : n + " replicas", COLORS.get(n), points, null));
        }
        List<ScalingPlot.Panel> panels = List.of(
                new ScalingPlot.Panel("cache heap per replica, mean (MB, log scale)", true,
                        p -> p.values()[0] / ScalingPlot.MIB, " MB"),
                new ScalingPlot.Panel("largest replica's heap ÷ one replica's", false, p -> p.values()[1], ""),
                new ScalingPlot.Panel("time to ready, slowest replica (s, log scale)", true,
                        p -> p.values()[2] / 1000, " s"));
        try {
            ScalingPlot.write(plot, "Sharded replicas: each replica's cache of n small ConfigMaps", panels, series);
            Progress.say("sharding: plot written to %s", plot.toAbsolutePath());
        } catch (IOException | RuntimeException | LinkageError | AWTError | InternalError e) {
            // The tables are the scenario's result; a machine without fonts can still print them.
            Progress.say("sharding: the plot was not written to %s: %s", plot.toAbsolutePath(), e);
        }
    }
}
