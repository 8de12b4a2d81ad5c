package dev.watchkeeper.test;

import dev.watchkeeper.internal.backoff.TimeSource;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.BooleanSupplier;

/**
 * A virtual clock for backoff tests: nothing really sleeps. The clock only moves when a sleeper
 * {@linkplain #await sleeps} (it jumps to the end of the sleep and returns at once) or the test calls
 * {@link #advance}. A <em>horizon</em> ({@link #pauseAt}) stops the world: a sleep that would end beyond it
 * moves the clock to the horizon and parks, until the horizon is raised or lifted ({@link #resume()}), the clock
 * is advanced past the sleep's end, or the sleeper is woken ("retry now", close).
 *
 * <pre>{@code
 * VirtualTime time = new VirtualTime();
 * time.pauseAt(Duration.ofSeconds(30));
 * watcher = HttpWatchApi.watcher(client, type).timeSource(time).build();
 * watcher.start();
 * time.awaitPaused(Duration.ofSeconds(5));
 * assertThat(stub.requests(path)).hasSizeLessThanOrEqualTo(6);   // in the first 30 virtual seconds
 * }</pre>
 *
 * Parked sleepers wait on their own monitor (which they hold, per {@link TimeSource#await}) in 5 ms real slices,
 * re-checking the horizon and their wake condition, so a {@code notifyAll} on the monitor (wake-up, close) ends
 * the wait at once and the monitor is released while parked.
 */
public final class VirtualTime implements TimeSource {

    /** Where a {@code new VirtualTime()} starts: 2026-01-01T00:00:00Z. */
    public static final Instant DEFAULT_START = Instant.parse("2026-01-01T00:00:00Z");

    private static final long PARKED_SLICE_MILLIS = 5;

    private final Object lock = new Object();
    private final Instant start;
    private final List<Duration> sleeps = new ArrayList<>();
    private final List<Instant> sleepStarts = new ArrayList<>();
    private Instant now;
    private Instant horizon;
    private int parked;

    public VirtualTime() {
        this(DEFAULT_START);
    }

    public VirtualTime(Instant start) {
        this.start = Objects.requireNonNull(start, "start");
        this.now = start;
    }

    @Override
    public Clock clock() {
        return new VirtualClock(ZoneOffset.UTC);
    }

    @Override
    public void await(Object monitor, Duration delay, BooleanSupplier wake) throws InterruptedException {
        Instant end;
        synchronized (lock) {
            sleeps.add(delay);
            sleepStarts.add(now);
            if (wake.getAsBoolean()) {
                return;
            }
            end = now.plus(delay);
            if (reachable(end)) {
                moveTo(end);
                return;
            }
            moveTo(horizon);
            parked++;
            lock.notifyAll();
        }
        try {
            while (true) {
                // outside our lock: whoever wakes the sleeper needs the monitor, and may call us meanwhile
                monitor.wait(PARKED_SLICE_MILLIS);
                if (wake.getAsBoolean()) {
                    return;
                }
                synchronized (lock) {
                    if (reachable(end)) {
                        moveTo(end);
                        return;
                    }
                }
            }
        } finally {
            synchronized (lock) {
                parked--;
                lock.notifyAll();
            }
        }
    }

    private boolean reachable(Instant end) {
        return horizon == null || !end.isAfter(horizon) || !end.isAfter(now);
    }

    private void moveTo(Instant instant) {
        if (instant.isAfter(now)) {
            now = instant;
        }
    }

    /** Moves the clock forward by {@code duration}; parked sleeps that end by then return. */
    public void advance(Duration duration) {
        if (duration.isNegative()) {
            throw new IllegalArgumentException("time only moves forward: " + duration);
        }
        synchronized (lock) {
            now = now.plus(duration);
        }
    }

    /** Sets the horizon {@code sinceStart} after the start instant. */
    public void pauseAt(Duration sinceStart) {
        pauseAt(start.plus(sinceStart));
    }

    /** Sets the horizon: sleeps that would end after {@code instant} park until it is raised or lifted. */
    public void pauseAt(Instant instant) {
        synchronized (lock) {
            horizon = Objects.requireNonNull(instant, "instant");
        }
    }

    /** Lifts the horizon: parked sleepers finish their sleeps and return. */
    public void resume() {
        synchronized (lock) {
            horizon = null;
        }
    }

    /**
     * Waits (really) until some sleeper is parked at the horizon.
     *
     * @return the virtual time then (the horizon)
     * @throws AssertionError when none parks within {@code timeout}
     */
    public Instant awaitPaused(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (lock) {
            while (parked == 0) {
                long remainingMillis = (deadline - System.nanoTime()) / 1_000_000;
                if (remainingMillis <= 0) {
                    throw new AssertionError("no sleeper reached the horizon " + horizon + " within " + timeout
                            + "; virtual time is " + now + ", sleeps so far " + sleeps);
                }
                try {
                    lock.wait(remainingMillis);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new AssertionError("interrupted while waiting for a paused sleeper", e);
                }
            }
            return now;
        }
    }

    /** Whether a sleeper is parked at the horizon now. */
    public boolean isPaused() {
        synchronized (lock) {
            return parked > 0;
        }
    }

    /** The virtual time now. */
    public Instant now() {
        synchronized (lock) {
            return now;
        }
    }

    /** Virtual time elapsed since the start instant. */
    public Duration elapsed() {
        synchronized (lock) {
            return Duration.between(start, now);
        }
    }

    /** Every delay a sleeper asked for, in order (including ones woken early or parked). */
    public List<Duration> sleeps() {
        synchronized (lock) {
            return List.copyOf(sleeps);
        }
    }

    /** The virtual time at which each of {@link #sleeps()} started. */
    public List<Instant> sleepStarts() {
        synchronized (lock) {
            return List.copyOf(sleepStarts);
        }
    }

    /** The {@link Clock} view: reads the virtual time. */
    private final class VirtualClock extends Clock {

        private final ZoneId zone;

        VirtualClock(ZoneId zone) {
            this.zone = zone;
        }

        @Override
        public ZoneId getZone() {
            return zone;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return new VirtualClock(zone);
        }

        @Override
        public Instant instant() {
            return now();
        }
    }
}
