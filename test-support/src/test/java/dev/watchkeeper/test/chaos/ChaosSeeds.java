package dev.watchkeeper.test.chaos;

import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;

/**
 * Which seeds a chaos test runs: {@code -Dchaos.seed=N} replays seed N alone ({@code -Dchaos.seed=N,M,…} those
 * seeds); otherwise seeds 1 to
 * {@code -Dchaos.seeds} (default {@code defaultSeeds}). A failing seed names the Maven command that replays it, and
 * the suite prints what it injected.
 */
final class ChaosSeeds {

    private final String testClass;
    private final Map<FaultKind, Integer> injected = new EnumMap<>(FaultKind.class);
    private final Map<String, Integer> watcherErrors = new TreeMap<>();
    private long seeds;
    private long objects;
    private long changes;
    private long requests;
    private long bounds;

    ChaosSeeds(String testClass) {
        this.testClass = testClass;
    }

    /** One dynamic test per seed, running {@code run}. */
    Stream<DynamicTest> tests(int defaultSeeds, Seed run) {
        String one = System.getProperty("chaos.seed");
        LongStream seeds = one != null && !one.isBlank() ? Arrays.stream(one.split(",")).map(String::trim).mapToLong(Long::parseLong)
                : LongStream.rangeClosed(1, Long.getLong("chaos.seeds", defaultSeeds));
        return seeds.mapToObj(seed -> DynamicTest.dynamicTest("seed " + seed, () -> {
            try {
                record(run.run(seed));
            } catch (AssertionError | Exception e) {
                throw new AssertionError("chaos seed " + seed + " failed; replay it with:\n  " + replayCommand(seed)
                        + "\n" + e.getMessage(), e);
            }
        }));
    }

    String replayCommand(long seed) {
        return "./mvnw -B -o test -pl test-support -am -Dtest=" + testClass
                + " -Dsurefire.failIfNoSpecifiedTests=false -Dchaos.seed=" + seed;
    }

    private synchronized void record(SeedRun run) {
        seeds++;
        objects += run.objects();
        changes += run.changes();
        requests += run.requests();
        bounds += run.requestBound();
        run.schedule().counts().forEach((kind, count) -> injected.merge(kind, count, Integer::sum));
        run.watcherErrors().forEach((kind, count) -> watcherErrors.merge(kind, count, Integer::sum));
    }

    /**
     * A line for the build log: seeds, objects, changes and requests per seed, faults injected by kind and the errors
     * the watcher reported (a fault that finds no open watch, or one another fault already ended, reports none).
     */
    synchronized String summary() {
        if (seeds == 0) {
            return testClass + ": no seed passed";
        }
        return testClass + ": " + seeds + " seeds passed; per seed on average " + objects / seeds + " objects, "
                + changes / seeds + " changes, " + requests / seeds + " requests (bound " + bounds / seeds
                + "); faults injected " + injected + "; errors the watcher reported " + watcherErrors;
    }

    /** One seed's run. */
    @FunctionalInterface
    interface Seed {
        SeedRun run(long seed) throws Exception;
    }

    /** What one seed did: its schedule, history size, and the requests it sent against the bound it had. */
    record SeedRun(FaultSchedule schedule, int objects, int changes, int requests, long requestBound,
                   Map<String, Integer> watcherErrors) {
    }
}
