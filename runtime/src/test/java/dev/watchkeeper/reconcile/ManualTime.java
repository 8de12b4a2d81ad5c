package dev.watchkeeper.reconcile;

import dev.watchkeeper.internal.backoff.TimeSource;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

/**
 * A clock that moves only when a test says so. {@link #await} may return early (like a spurious wake-up), so waiting
 * code must loop on its own deadline, which the runtime's does.
 */
public final class ManualTime implements TimeSource {

    private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2025-01-01T00:00:00Z"));

    private final Clock clock = new Clock() {
        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now.get();
        }
    };

    @Override
    public Clock clock() {
        return clock;
    }

    public void advance(Duration duration) {
        now.updateAndGet(instant -> instant.plus(duration));
    }

    @Override
    public void await(Object monitor, Duration delay, BooleanSupplier wake) throws InterruptedException {
        // Returns after a short real wait whatever the clock says: callers loop and recompute their deadline, and a
        // deadline computed here could miss an advance made between the caller reading the clock and this call.
        if (!wake.getAsBoolean() && !delay.isZero() && !delay.isNegative()) {
            monitor.wait(2);
        }
    }
}
