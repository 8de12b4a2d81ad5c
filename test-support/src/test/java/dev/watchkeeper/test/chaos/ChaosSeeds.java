package dev.watchkeeper.test.chaos;

import java.util.EnumMap;
import java.util.Map;
import java.util.function.LongFunction;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;

/**
 * Which seeds a chaos test runs: {@code -Dchaos.seed=N} replays seed N alone; otherwise seeds 1 to
 * {@code -Dchaos.seeds} (default {@code defaultSeeds}). A failing seed names the Maven command that replays it, and
 * the suite prints what it injected.
 */
final class ChaosSeeds {

    private final String testClass;
    private final Map<FaultKind, Integer> injected = new EnumMap<>(FaultKind.class);
    private long seeds;
    private long objects;
    private long changes;
    private long requests;
    private long bounds;

    ChaosSeeds(String testClass) {
        this.testClass = testClass;
    }

    /** One dynamic test per seed, running {@code run}. */
    Stream<DynamicTest> tests(int defaultSeeds, LongFunction<SeedRun> run) {
        String one = System.getProperty("chaos.seed");
        LongStream seeds = one != null && !one.isBlank() ? LongStream.of(Long.parseLong(one.trim()))
                : LongStream.rangeClosed(1, Long.getLong("chaos.seeds", defaultSeeds));
        return seeds.mapToObj(seed -> DynamicTest.dynamicTest("seed " + seed, () -> {
            try {
                record(run.apply(seed));
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
    }

    /** A line for the build log: seeds, objects and changes per seed, faults injected by kind. */
    synchronized String summary() {
        if (seeds == 0) {
            return testClass + ": no seed passed";
        }
        return testClass + ": " + seeds + " seeds passed; per seed on average " + objects / seeds + " objects, "
                + changes / seeds + " changes, " + requests / seeds + " requests (bound " + bounds / seeds
                + "); faults injected " + injected;
    }

    /** What one seed did: its schedule, history size, and the requests it sent against the bound it had. */
    record SeedRun(FaultSchedule schedule, int objects, int changes, int requests, long requestBound) {
    }
}
