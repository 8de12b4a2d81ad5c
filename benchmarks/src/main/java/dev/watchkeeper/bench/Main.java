package dev.watchkeeper.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs the benchmark scenarios and prints one table per scenario.
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar all            # every scenario at full size
 * java -jar benchmarks/target/benchmarks.jar all --quick    # small sizes, under 2 minutes (CI smoke)
 * java -jar benchmarks/target/benchmarks.jar watch|sync|scaling|sharding|dispatch|outage|startup|restart [--quick]
 * java -jar benchmarks/target/benchmarks.jar list-semantics [--quick]   # needs the real control plane (controlplane/)
 * java -jar benchmarks/target/benchmarks.jar endtoend [--quick]         # and the sample's jar (sample-app/target)
 * java -jar benchmarks/target/benchmarks.jar fresh [--quick]            # read your own writes, on the control plane
 * </pre>
 */
public final class Main {

    /** {@code --events=N}: the watch scenario's event count instead of the size's default (for profiling). */
    private static int eventsOverride;

    private Main() {
    }

    public static void main(String[] args) throws Exception {
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "error");
        System.setProperty("org.slf4j.simpleLogger.log.io.kubernetes", "off");
        System.setProperty("org.slf4j.simpleLogger.log.dev.watchkeeper", "off");
        List<String> rest = new ArrayList<>(List.of(args));
        boolean quick = rest.remove("--quick");
        for (String arg : List.copyOf(rest)) {
            if (arg.startsWith("--events=")) {
                eventsOverride = Integer.parseInt(arg.substring("--events=".length()));
                rest.remove(arg);
            }
        }
        String command = rest.isEmpty() ? "all" : rest.get(0);
        if (command.equals("sync-child")) {
            SyncChild.main(rest.subList(1, rest.size()));
            return;
        }
        if (command.equals("shard-child")) {
            ShardChild.main(rest.subList(1, rest.size()));
            return;
        }
        if (command.equals("floor-child")) {
            FloorChild.main(rest.subList(1, rest.size()));
            System.exit(0);
        }
        if (command.equals("startup-child")) {
            dev.watchkeeper.bench.startup.StartupChild.main(rest.subList(1, rest.size()));
            return;
        }
        long start = System.nanoTime();
        System.out.printf("Watchkeeper benchmarks — %s%s; %d cores, Java %s, max heap %d MB%n", command,
                quick ? " --quick" : "", Runtime.getRuntime().availableProcessors(),
                System.getProperty("java.version"), Runtime.getRuntime().maxMemory() / (1024 * 1024));
        switch (command) {
            case "all" -> {
                watch(quick);
                sync(quick);
                scaling(quick);
                sharding(quick);
                dispatch(quick);
                outage(quick);
                startup(quick);
                restart(quick);
            }
            case "dispatch" -> dispatch(quick);
            case "watch" -> watch(quick);
            case "sync" -> sync(quick);
            case "scaling" -> scaling(quick);
            case "sharding" -> sharding(quick);
            case "outage" -> outage(quick);
            case "startup" -> startup(quick);
            case "restart" -> restart(quick);
            case "list-semantics" -> listSemantics(quick);
            case "endtoend" -> endToEnd(quick);
            case "dependents" -> new DependentsCost(Integer.getInteger("bench.dependents.pages", quick ? 50 : 500),
                    quick ? 1 : 5).run();
            case "fresh" -> new Freshness(quick ? 4 : 50, quick ? 5 : 20, quick ? 1 : 3).run();
            default -> {
                System.err.println("usage: benchmarks.jar [all|watch|sync|scaling|sharding|dispatch|outage|startup|restart"
                        + "|list-semantics|endtoend|dependents|fresh] [--quick]");
                System.exit(2);
            }
        }
        System.out.printf("%nTotal wall time %.0f s%n", (System.nanoTime() - start) / 1e9);
        System.exit(0);
    }

    private static void watch(boolean quick) throws Exception {
        int events = eventsOverride > 0 ? eventsOverride : quick ? 10_000 : 200_000;
        // -Dbench.watch.objects=N: how many distinct objects the events cycle through, i.e. the caches' size.
        int objects = Integer.getInteger("bench.watch.objects", quick ? 1_000 : Math.min(10_000, events / 2));
        new WatchThroughput(events, objects, quick ? 1 : 2, 5).run();
    }

    private static void sync(boolean quick) throws Exception {
        if (quick) {
            new InitialSync(2_000, 1, 5).run();
        } else {
            // -Dbench.objects=N: a smaller full-size run when 100,000 does not fit the time at hand.
            new InitialSync(Integer.getInteger("bench.objects", 100_000), 1, 5).run();
        }
    }

    /**
     * The scaling curve; the full run draws {@code benchmarks/scaling.png}, the quick one
     * {@code benchmarks/target/scaling-quick.png} (next to the jar), so a smoke run leaves the committed plot alone.
     */
    private static void scaling(boolean quick) throws Exception {
        Path target = Path.of(Main.class.getProtectionDomain().getCodeSource().getLocation().toURI()).getParent();
        if (quick) {
            Duration limit = Duration.ofMinutes(2);
            new Scaling(List.of(new Scaling.Size(1_000, "512m", 0, 1, limit),
                    new Scaling.Size(3_000, "512m", 0, 1, limit),
                    new Scaling.Size(10_000, "512m", 0, 1, limit)), target.resolve("scaling-quick.png")).run();
        } else {
            // One round at a million and beyond (each takes minutes); two million is where the informer's relist no
            // longer fits in 12 GB, the most any one JVM may take on the 24 GB machine these ran on.
            new Scaling(List.of(new Scaling.Size(10_000, "1g", 1, 3, Duration.ofMinutes(3)),
                    new Scaling.Size(100_000, "3g", 1, 2, Duration.ofMinutes(5)),
                    new Scaling.Size(1_000_000, "12g", 0, 1, Duration.ofMinutes(6)),
                    new Scaling.Size(2_000_000, "12g", 0, 1, Duration.ofMinutes(7))),
                    target.getParent().resolve("scaling.png")).run();
        }
    }

    /**
     * Sharded replicas: each replica's cache heap at 1, 2 and 4 replicas, and a join and a leave with real coordinators.
     * The full run draws {@code benchmarks/sharding.png}, the quick one {@code benchmarks/target/sharding-quick.png}.
     * {@code -Dbench.sharding.sizes=100000}: the heap sizes (default 10,000, 100,000 and 1,000,000; the million takes
     * two minutes of the scenario's five);
     * {@code -Dbench.sharding.moves=N}: the join and leave's objects (default 100,000).
     */
    private static void sharding(boolean quick) throws Exception {
        Path target = Path.of(Main.class.getProtectionDomain().getCodeSource().getLocation().toURI()).getParent();
        if (quick) {
            new Sharding(List.of(new Sharding.Size(2_000, "256m", 0, Duration.ofMinutes(1))), 2_000,
                    target.resolve("sharding-quick.png")).run();
            return;
        }
        List<Sharding.Size> sizes = new ArrayList<>();
        for (String objects : System.getProperty("bench.sharding.sizes", "10000,100000,1000000").split(",")) {
            int n = Integer.parseInt(objects.trim());
            // one replica of a million holds about 0.8 GB (the scaling curve), so 4 GB leaves it room
            sizes.add(n >= 1_000_000 ? new Sharding.Size(n, "4g", 0, Duration.ofMinutes(6))
                    : new Sharding.Size(n, "2g", 1, Duration.ofMinutes(3)));
        }
        new Sharding(sizes, Integer.getInteger("bench.sharding.moves", 100_000),
                target.getParent().resolve("sharding.png")).run();
    }

    private static void dispatch(boolean quick) throws Exception {
        new ReconcileDispatch(quick ? 10_000 : 50_000, quick ? 1 : 3, 7).run();
    }

    private static void outage(boolean quick) throws Exception {
        new OutageLoad(quick ? java.time.Duration.ofSeconds(20) : java.time.Duration.ofMinutes(3)).run();
    }

    private static void listSemantics(boolean quick) throws Exception {
        // -Dbench.list.objects=N: how many ConfigMaps the lists return.
        new ListSemanticsCost(Integer.getInteger("bench.list.objects", quick ? 500 : 3_000), 2, quick ? 3 : 10).run();
    }

    /**
     * The sample's reconciler end to end on the real control plane, at N = 200 and 2,000 ({@code --quick}: 200;
     * {@code -Dbench.endtoend.sizes=200,2000}). The sample is found as {@code sample-app/} next to
     * {@code benchmarks/} ({@code -Dbench.sample.dir=…}); without its jar or the control plane it says so and skips.
     * {@code -Dbench.endtoend.jfr=DIR}: each application JVM records a JFR profile into DIR (for profiling only:
     * recording costs the application CPU). {@code -Dbench.endtoend.jvm-flags="…"}: flags added to each application
     * JVM's.
     */
    private static void endToEnd(boolean quick) throws Exception {
        Path repository = Path.of(Main.class.getProtectionDomain().getCodeSource().getLocation().toURI()).getParent()
                .getParent().getParent();
        Path sample = Path.of(System.getProperty("bench.sample.dir", repository.resolve("sample-app").toString()));
        List<Integer> sizes = new ArrayList<>();
        for (String size : System.getProperty("bench.endtoend.sizes", quick ? "200" : "200,2000").split(",")) {
            sizes.add(Integer.parseInt(size.trim()));
        }
        new EndToEnd(sizes, sample).run();
    }

    /**
     * A restart's backlog of 100,000 objects ({@code --quick}: 5,000; {@code -Dbench.restart.objects=N}) while new
     * objects are created, with the priority queue and as one FIFO.
     */
    private static void restart(boolean quick) throws Exception {
        int objects = Integer.getInteger("bench.restart.objects", quick ? 5_000 : 100_000);
        new RestartBacklog(objects, Duration.ofSeconds(quick ? 2 : 5)).run();
    }

    private static void startup(boolean quick) throws Exception {
        // Two JVM starts a round; --quick keeps to two measured rounds so `all --quick` stays near two minutes.
        new StartupTime(100, 1, quick ? 2 : 7).run();
    }
}
