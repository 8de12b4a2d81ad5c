package dev.watchkeeper.bench;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.watchkeeper.bench.startup.StartupChild;
import dev.watchkeeper.test.apiserver.InMemoryApiServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Scenario 5: a Spring Boot application with ten {@code @Reconciler} beans, each watching the ConfigMaps of its own
 * namespace on the in-memory API server (which runs here, in the parent, so it costs the application nothing).
 * Every measurement is a fresh JVM ({@link StartupChild}), because a cold start is what users see. Each round
 * starts the application with the starter and, alternating which goes first, the baseline: the same application with
 * Watchkeeper's auto-configurations excluded, so the reconcilers are plain beans, and with the {@code ApiClient} bean
 * the starter would build, so client-java's own set-up is in both. The application finds the server through
 * {@code $KUBECONFIG}, as it would find a cluster.
 */
final class StartupTime {

    /** The measuring JVM's flags: the same for both, and small, as a controller's pod would run it. */
    static final List<String> CHILD_FLAGS = List.of("-Xmx256m", "-XX:+UseG1GC");

    /** Issue 15's goal for what the starter adds to {@code run()} over the baseline. */
    private static final int GOAL_ADDED_MILLIS = 400;

    private static final int WATCHERS = StartupChild.WATCHERS;
    private static final String NAMESPACE_PREFIX = StartupChild.NAMESPACE_PREFIX;

    private final int objectsPerWatcher;
    private final int warmups;
    private final int rounds;

    StartupTime(int objectsPerWatcher, int warmups, int rounds) {
        this.objectsPerWatcher = objectsPerWatcher;
        this.warmups = warmups;
        this.rounds = rounds;
    }

    void run() throws Exception {
        List<String> impls = List.of("starter", "baseline");
        Map<String, Stats> ran = new LinkedHashMap<>();
        impls.forEach(impl -> ran.put(impl, new Stats()));
        Stats synced = new Stats();
        Map<String, Stats> cpuAtRun = new LinkedHashMap<>();
        impls.forEach(impl -> cpuAtRun.put(impl, new Stats()));
        Stats cpuAtSynced = new Stats();
        try (InMemoryApiServer server = new InMemoryApiServer().start()) {
            Progress.say("scenario 5: %d namespaces × %,d ConfigMaps on the in-memory server; %d warm-up + %d "
                    + "measured rounds, each a fresh JVM per application", WATCHERS, objectsPerWatcher, warmups, rounds);
            for (int w = 0; w < WATCHERS; w++) {
                for (int i = 0; i < objectsPerWatcher; i++) {
                    JsonObject object = JsonParser.parseString(ConfigMapBytes.object(i, "1")).getAsJsonObject();
                    JsonObject metadata = object.getAsJsonObject("metadata");
                    metadata.addProperty("namespace", NAMESPACE_PREFIX + w);
                    metadata.remove("resourceVersion");
                    metadata.remove("uid");
                    metadata.remove("creationTimestamp");
                    server.create(object);
                }
            }
            Path dir = Files.createTempDirectory("watchkeeper-startup-");
            Path kubeconfig = server.writeKubeconfig(dir);
            try {
                for (int round = 0; round < warmups + rounds; round++) {
                    boolean measured = round >= warmups;
                    for (int j = 0; j < impls.size(); j++) {
                        String impl = impls.get((j + round) % impls.size());
                        long[] r = child(impl, kubeconfig);
                        Progress.say("  %s round %d%s: run() %,d ms (CPU %,d ms)%s", impl, round + 1,
                                measured ? "" : " (warm-up)", r[0] / 1_000_000, r[2] / 1_000_000, r[1] < 0 ? ""
                                        : String.format(", all synced %,d ms (CPU %,d ms)", r[1] / 1_000_000,
                                                r[3] / 1_000_000));
                        if (measured) {
                            ran.get(impl).add(r[0] / 1e6);
                            cpuAtRun.get(impl).add(r[2] / 1e6);
                            if (r[1] >= 0) {
                                synced.add(r[1] / 1e6);
                                cpuAtSynced.add(r[3] / 1e6);
                            }
                        }
                    }
                }
            } finally {
                Files.deleteIfExists(kubeconfig);
                Files.deleteIfExists(dir);
            }
        }
        Stats ours = ran.get("starter");
        Stats base = ran.get("baseline");
        Stats oursCpu = cpuAtRun.get("starter");
        Stats baseCpu = cpuAtRun.get("baseline");
        Table table = new Table(String.format("Scenario 5 — start-up with %d @Reconciler beans (%d watchers of %,d "
                        + "ConfigMaps of ~2 KB each, in-memory API server; a fresh JVM per start, %s)", WATCHERS, WATCHERS,
                objectsPerWatcher, String.join(" ", CHILD_FLAGS)),
                "implementation", "run() returns (median)", "spread", "range", "all watchers synced (median)",
                "spread", "range", "process CPU at run() / synced", "added over baseline");
        table.row("ours: app with the starter", ms(ours.median()), ours.spread(), ours.range("%,.0f") + " ms",
                ms(synced.median()), synced.spread(), synced.range("%,.0f") + " ms",
                ms(oursCpu.median()) + " / " + ms(cpuAtSynced.median()),
                String.format("run() +%s, synced +%s", ms(ours.median() - base.median()),
                        ms(synced.median() - base.median())));
        table.row("baseline: same app and ApiClient bean, Watchkeeper auto-configurations excluded",
                ms(base.median()), base.spread(), base.range("%,.0f") + " ms", "–", "–", "–", ms(baseCpu.median()) + " / –", "–");
        table.note(String.format("%d measured rounds after %d warm-up; each round starts both applications once, "
                + "alternating which goes first; medians. Times run from just before the SpringApplication is built "
                + "in main (JVM launch not included) to run() returning, and to the moment the last of the %d "
                + "watchers' stores reports ready (listened for on Store.ready(), checked against every "
                + "WatcherSnapshot: synced, %,d objects)", rounds, warmups, WATCHERS, objectsPerWatcher));
        table.note("added over baseline = median with the starter − median of the baseline's run(). The baseline is "
                + "the same class path and application class with spring.autoconfigure.exclude listing every "
                + "Watchkeeper auto-configuration, so its reconcilers are plain beans and it opens no connection, plus "
                + "one ApiClient bean built as the starter builds its own: ClientBuilder.standard() from the same "
                + "$KUBECONFIG, an eager singleton the context creates before run() returns (checked). So both do "
                + "client-java's own set-up (kubeconfig, its JSON with every model's adapter, OkHttp); what is added "
                + "is Watchkeeper's");
        table.note(String.format("process CPU = every thread of the application's JVM, its launch included (from "
                + "/proc, 10 ms ticks); the starter adds %s of CPU by run() and %s by all synced. Wall times stretch "
                + "when the machine is shared; CPU time much less", ms(oursCpu.median() - baseCpu.median()),
                ms(cpuAtSynced.median() - baseCpu.median())));
        double added = ours.median() - base.median();
        table.note(String.format("goal: run() ≤ +%,d ms over the baseline: %s (%s); the time to all "
                + "synced must not grow (compare with an earlier run's)", GOAL_ADDED_MILLIS,
                added <= GOAL_ADDED_MILLIS ? "met" : "MISSED", String.format("%+,.0f ms", added)));
        table.print();
    }

    private static String ms(double millis) {
        return Double.isNaN(millis) ? "–" : String.format("%,.0f ms", millis);
    }

    /** One cold start in a JVM of its own: nanos to run() returning, to all synced (or -1), CPU nanos at each. */
    private long[] child(String impl, Path kubeconfig) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java));
        command.addAll(CHILD_FLAGS);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName(), "startup-child",
                impl, Integer.toString(objectsPerWatcher)));
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT);
        builder.environment().put("KUBECONFIG", kubeconfig.toString());
        return ChildResult.read(builder.start(), "the " + impl + " start-up JVM");
    }
}
