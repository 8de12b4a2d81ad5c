package dev.watchkeeper.internal.backoff;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.function.BiConsumer;
import org.springframework.retry.backoff.Sleeper;

/**
 * The {@link Sleeper} a watcher hands to its {@code SleepingBackOffPolicy}: it reports each delay before waiting
 * (so the published state shows the delay and the next attempt time), waits interruptibly on the
 * {@link TimeSource}, returns early on {@link #wakeUp()} ("retry now"), and throws once {@link #close() closed}.
 * A {@link #atLeast(Duration) floor} such as a server's {@code Retry-After} stretches the next wait.
 */
public final class BackOffSleeper implements Sleeper {

    private static final long serialVersionUID = 1L;

    private final transient TimeSource time;
    private final transient BiConsumer<Duration, Instant> onSleep;
    private final Object monitor = new Object();
    private boolean wakeRequested;
    private boolean closed;
    private Duration floor = Duration.ZERO;

    /**
     * @param time    where to read the clock and wait
     * @param onSleep told the delay and the next attempt time before each wait
     */
    public BackOffSleeper(TimeSource time, BiConsumer<Duration, Instant> onSleep) {
        this.time = Objects.requireNonNull(time, "time");
        this.onSleep = Objects.requireNonNull(onSleep, "onSleep");
    }

    @Override
    public void sleep(long backOffPeriod) throws InterruptedException {
        synchronized (monitor) {
            Duration delay = Duration.ofMillis(Math.max(0, backOffPeriod));
            if (delay.compareTo(floor) < 0) {
                delay = floor;
            }
            floor = Duration.ZERO;
            if (closed) {
                throw new InterruptedException("closed");
            }
            onSleep.accept(delay, time.clock().instant().plus(delay));
            time.await(monitor, delay, () -> wakeRequested || closed);
            wakeRequested = false;
            if (closed) {
                throw new InterruptedException("closed");
            }
        }
    }

    /** The next wait lasts at least {@code minimum} (e.g. a 429's {@code Retry-After}). */
    public void atLeast(Duration minimum) {
        synchronized (monitor) {
            floor = minimum == null ? Duration.ZERO : minimum;
        }
    }

    /** Ends the current wait now, or makes the next one return at once. */
    public void wakeUp() {
        synchronized (monitor) {
            wakeRequested = true;
            monitor.notifyAll();
        }
    }

    /** Ends the current wait with an {@link InterruptedException}; every later {@link #sleep} throws too. */
    public void close() {
        synchronized (monitor) {
            closed = true;
            monitor.notifyAll();
        }
    }
}
