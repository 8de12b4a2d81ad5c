package dev.watchkeeper.internal.backoff;

import java.time.Clock;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Where Watchkeeper reads the time and waits: one object of our own type, so tests swap in a virtual clock
 * without touching an application's {@code Clock} bean.
 *
 * <pre>{@code
 * TimeSource time = TimeSource.system();
 * Instant now = time.clock().instant();
 * }</pre>
 */
public interface TimeSource {

    /** The clock used for backoff, reset timers, elapsed time and published timestamps. */
    Clock clock();

    /**
     * Waits up to {@code delay}, returning early once {@code wake} is true. The caller holds {@code monitor}'s
     * lock; whoever makes {@code wake} true calls {@code monitor.notifyAll()}.
     *
     * @throws InterruptedException when the waiting thread is interrupted
     */
    void await(Object monitor, Duration delay, BooleanSupplier wake) throws InterruptedException;

    /** Real time: the system UTC clock and {@link Object#wait(long)}. */
    static TimeSource system() {
        return SystemTimeSource.INSTANCE;
    }
}
