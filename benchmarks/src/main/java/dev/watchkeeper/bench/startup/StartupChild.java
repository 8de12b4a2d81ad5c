package dev.watchkeeper.bench.startup;

import dev.watchkeeper.internal.registry.WatchkeeperRegistry;
import dev.watchkeeper.internal.watch.Watcher;
import dev.watchkeeper.watch.WatcherSnapshot;
import io.kubernetes.client.openapi.ApiClient;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Collectors;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Scenario 5's measuring JVM: starts {@link TenReconcilersApplication} once, cold, and prints
 * {@code RESULT runNanos syncedNanos cpuAtRunNanos cpuAtSyncedNanos}: wall time from just before
 * {@code SpringApplication} is built, and the process's CPU time (every thread, JVM launch included) at those
 * moments; the synced pair is {@code -1} for the baseline. CPU time says how much work a start is when the
 * shared machine stretches the wall time. The API server runs in the parent; the application finds it through
 * {@code $KUBECONFIG}, as a user's would; the baseline, without Watchkeeper's auto-configurations, builds the same
 * {@link ApiClient} from it ({@link BaselineApiClient}).
 *
 * <pre>
 * KUBECONFIG=… java -cp benchmarks.jar dev.watchkeeper.bench.Main startup-child starter|baseline objectsPerWatcher
 * </pre>
 */
public final class StartupChild {

    /** How many {@code @Reconciler}s, so watchers, the application has. */
    public static final int WATCHERS = TenReconcilers.COUNT;

    /** The reconciler {@code i} watches the ConfigMaps of namespace {@code NAMESPACE_PREFIX + i}. */
    public static final String NAMESPACE_PREFIX = TenReconcilers.NAMESPACE_PREFIX;

    private static final Duration TIMEOUT = Duration.ofMinutes(2);
    private static final String IMPORTS = "META-INF/spring/org.springframework.boot.autoconfigure.AutoConfiguration.imports";

    private StartupChild() {
    }

    public static void main(List<String> args) throws Exception {
        boolean starter = switch (args.get(0)) {
            case "starter" -> true;
            case "baseline" -> false;
            default -> throw new IllegalArgumentException("starter or baseline, not " + args.get(0));
        };
        int objects = Integer.parseInt(args.get(1));
        List<String> appArgs = new ArrayList<>(List.of("--spring.main.banner-mode=off"));
        if (!starter) {
            appArgs.add("--spring.autoconfigure.exclude=" + String.join(",", watchkeeperAutoConfigurations()));
        }
        SyncClock clock = new SyncClock();

        long start = System.nanoTime();
        SpringApplication application = new SpringApplication(TenReconcilersApplication.class);
        application.addInitializers(clock);
        if (!starter) {
            application.addInitializers(new BaselineApiClient());
        }
        ConfigurableApplicationContext context = application.run(appArgs.toArray(String[]::new));
        long ran = System.nanoTime() - start;
        long cpuAtRun = cpuNanos();
        long synced = starter ? clock.awaitSynced(TIMEOUT) - start : -1;
        long cpuAtSynced = starter ? cpuNanos() : -1;

        if (starter) {
            checkSynced(clock.watchers(), objects);
        } else {
            checkBaseline(context);
        }
        System.out.printf("RESULT %d %d %d %d%n", ran, synced, cpuAtRun, cpuAtSynced);
        System.out.flush();
        System.exit(0);
    }

    /** This process's CPU time so far, every thread (from /proc on Linux: 10 ms ticks). */
    private static long cpuNanos() {
        return ProcessHandle.current().info().totalCpuDuration().map(Duration::toNanos).orElse(-1L);
    }

    /** Every Watchkeeper auto-configuration on the class path, as Boot's import files list them. */
    private static List<String> watchkeeperAutoConfigurations() throws Exception {
        List<String> names = new ArrayList<>();
        for (URL url : Collections.list(StartupChild.class.getClassLoader().getResources(IMPORTS))) {
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(url.openStream(),
                    StandardCharsets.UTF_8))) {
                reader.lines().map(String::strip).filter(line -> line.startsWith("dev.watchkeeper."))
                        .forEach(names::add);
            }
        }
        if (names.isEmpty()) {
            throw new IllegalStateException("no Watchkeeper auto-configuration found in " + IMPORTS);
        }
        return names;
    }

    /** Every watcher's snapshot says synced with all its objects (published a moment after its store's ready). */
    private static void checkSynced(List<Watcher<?>> watchers, int objects) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        List<WatcherSnapshot> snapshots = watchers.stream().map(Watcher::snapshot).toList();
        while (!allSynced(snapshots, objects) && System.nanoTime() < deadline) {
            Thread.sleep(1);
            snapshots = watchers.stream().map(Watcher::snapshot).toList();
        }
        if (!allSynced(snapshots, objects)) {
            throw new IllegalStateException("expected " + TenReconcilers.COUNT + " synced watchers of " + objects
                    + " objects each, got " + snapshots.stream().map(s -> s.name() + " synced=" + s.synced()
                            + " objects=" + s.objects()).collect(Collectors.joining(", ")));
        }
    }

    private static boolean allSynced(List<WatcherSnapshot> snapshots, int objects) {
        return snapshots.size() == TenReconcilers.COUNT
                && snapshots.stream().allMatch(s -> s.synced() && s.objects() == objects);
    }

    private static void checkBaseline(ConfigurableApplicationContext context) {
        if (context.getBeanNamesForType(WatchkeeperRegistry.class).length > 0) {
            throw new IllegalStateException("the baseline has a WatchkeeperRegistry: the exclusion did not work");
        }
        if (!context.getBeanFactory().containsSingleton(BaselineApiClient.BEAN)
                || context.getBeanNamesForType(ApiClient.class).length != 1) {
            throw new IllegalStateException("the baseline did not create its one ApiClient while it started");
        }
        int reconcilers = 0;
        for (Class<?> type : TenReconcilers.class.getDeclaredClasses()) {
            reconcilers += context.getBeanNamesForType(type).length;
        }
        if (reconcilers != TenReconcilers.COUNT) {
            throw new IllegalStateException("the baseline has " + reconcilers + " reconciler beans, not "
                    + TenReconcilers.COUNT);
        }
    }
}
