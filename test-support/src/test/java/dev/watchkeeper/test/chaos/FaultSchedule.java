package dev.watchkeeper.test.chaos;

import dev.watchkeeper.internal.backoff.BackOffSettings;
import dev.watchkeeper.internal.watch.WatchOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The faults of one seed, each at a change of the history, and the request budget they allow: a watcher on the
 * backoff curve stays under {@link #requestBound}, a hot loop does not.
 */
record FaultSchedule(List<Fault> faults) {

    /**
     * What one server under test can afford: how many faults besides the outage, how long an outage lasts (on the
     * clock the watcher backs off on), how long an idle watch stays silent (real time) and how often one happens.
     */
    record Limits(int minFaults, int maxFaults, Duration minOutage, Duration maxOutage, Duration idleSilence,
                  double idleChance, int slowChanges, Duration slowPause) {
    }

    /** The kinds drawn uniformly; the outage (one per seed) and the idle watch (costly in real time) are drawn apart. */
    private static final List<FaultKind> COMMON = List.of(FaultKind.INTERNAL_ERROR, FaultKind.UNAVAILABLE,
            FaultKind.THROTTLED, FaultKind.EXPIRED_MID_STREAM, FaultKind.EXPIRED_AT_WATCH_START, FaultKind.COMPACTION,
            FaultKind.RESET_MID_STREAM, FaultKind.TRUNCATED_CHUNK, FaultKind.MALFORMED_LINE, FaultKind.SLOW_BODIES);

    /** Draws faults at changes {@code from} (inclusive) to {@code to} (exclusive). */
    static FaultSchedule draw(Random random, int from, int to, Limits limits) {
        List<Fault> faults = new ArrayList<>();
        int count = limits.minFaults() + random.nextInt(limits.maxFaults() - limits.minFaults() + 1);
        for (int i = 0; i < count; i++) {
            FaultKind kind = COMMON.get(random.nextInt(COMMON.size()));
            int at = from + random.nextInt(to - from);
            faults.add(switch (kind) {
                case INTERNAL_ERROR, UNAVAILABLE, EXPIRED_AT_WATCH_START ->
                        new Fault(at, kind, 1 + random.nextInt(3), Duration.ZERO);
                case THROTTLED -> new Fault(at, kind, 1 + random.nextInt(3), Duration.ofSeconds(1 + random.nextInt(5)));
                case SLOW_BODIES -> new Fault(at, kind, limits.slowChanges(), limits.slowPause());
                default -> new Fault(at, kind, 0, Duration.ZERO);
            });
        }
        long outageMillis = limits.minOutage().toMillis()
                + (long) (random.nextDouble() * (limits.maxOutage().toMillis() - limits.minOutage().toMillis()));
        faults.add(new Fault(from + random.nextInt(to - from), FaultKind.OUTAGE, 0, Duration.ofMillis(outageMillis)));
        if (random.nextDouble() < limits.idleChance()) {
            faults.add(new Fault(from + random.nextInt(to - from), FaultKind.IDLE_PAST_TIMEOUT, 0, limits.idleSilence()));
        }
        faults.sort(Comparator.comparingInt(Fault::atChange));
        return new FaultSchedule(List.copyOf(faults));
    }

    /** The faults to inject just before change {@code index}. */
    List<Fault> at(int index) {
        return faults.stream().filter(f -> f.atChange() == index).toList();
    }

    Map<FaultKind, Integer> counts() {
        Map<FaultKind, Integer> counts = new EnumMap<>(FaultKind.class);
        faults.forEach(f -> counts.merge(f.kind(), 1, Integer::sum));
        return counts;
    }

    /**
     * The most requests a watcher may send in a run that lasted {@code elapsed}: a full relist plus a watch at the
     * start, after every fault and after every request a fault fails (each of which may restart a paged list); one
     * rewatch per server-side watch timeout of real time; and during an outage one attempt per step of the backoff
     * curve that fits in it, counting each step at its shortest (no jitter), from the start of the curve (a reset
     * timer never makes it shorter).
     */
    long requestBound(History history, WatchOptions options, Duration elapsed, BackOffSettings backOff) {
        long relist = history.objects() / options.pageSize() + 2;
        long bound = relist + elapsed.toNanos() / options.timeout().toNanos() + 1;
        for (Fault fault : faults) {
            bound += switch (fault.kind()) {
                case SLOW_BODIES -> 0;
                case INTERNAL_ERROR, UNAVAILABLE, THROTTLED, EXPIRED_AT_WATCH_START -> fault.requests() * relist;
                case OUTAGE -> attemptsWithin(fault.duration(), backOff) + relist;
                default -> relist;
            };
        }
        return bound;
    }

    /** How many attempts fit in {@code outage} when each wait is the shortest the curve allows. */
    static int attemptsWithin(Duration outage, BackOffSettings backOff) {
        int attempts = 1;
        double waited = 0;
        double delay = backOff.initialInterval().toMillis();
        while (waited < outage.toMillis()) {
            waited += Math.min(delay, backOff.maxInterval().toMillis());
            delay *= backOff.multiplier();
            attempts++;
        }
        return attempts;
    }
}
