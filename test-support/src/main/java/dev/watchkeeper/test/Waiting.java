package dev.watchkeeper.test;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Waits on a monitor until a condition holds, failing a test with a message after a timeout. Checks at least every
 * 50 ms, so a condition changed without a {@code notifyAll} is still seen.
 *
 * <pre>{@code
 * Waiting.until(lock, () -> events.size() >= n, timeout, () -> "only " + events);
 * }</pre>
 */
public final class Waiting {

    private static final long SLICE_MILLIS = 50;

    private Waiting() {
    }

    /**
     * Blocks until {@code condition} holds, holding {@code lock} while testing it.
     *
     * @throws AssertionError with {@code failure}'s message when {@code timeout} passes first, or when interrupted
     */
    public static void until(Object lock, BooleanSupplier condition, Duration timeout, Supplier<String> failure) {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (lock) {
            while (!condition.getAsBoolean()) {
                long remainingMillis = (deadline - System.nanoTime()) / 1_000_000;
                if (remainingMillis <= 0) {
                    throw new AssertionError(failure.get());
                }
                try {
                    lock.wait(Math.min(remainingMillis, SLICE_MILLIS));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new AssertionError("interrupted while waiting", e);
                }
            }
        }
    }
}
