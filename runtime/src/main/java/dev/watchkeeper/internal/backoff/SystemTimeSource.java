package dev.watchkeeper.internal.backoff;

import java.time.Clock;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/** {@link TimeSource} on the system clock; waits with {@link Object#wait(long)}. */
final class SystemTimeSource implements TimeSource {

    static final SystemTimeSource INSTANCE = new SystemTimeSource();

    private final Clock clock = Clock.systemUTC();

    @Override
    public Clock clock() {
        return clock;
    }

    @Override
    public void await(Object monitor, Duration delay, BooleanSupplier wake) throws InterruptedException {
        long deadline = System.nanoTime() + delay.toNanos();
        while (!wake.getAsBoolean()) {
            long remainingNanos = deadline - System.nanoTime();
            if (remainingNanos <= 0) {
                return;
            }
            monitor.wait((remainingNanos + 999_999) / 1_000_000); // rounded up: never wake before the deadline
        }
    }
}
