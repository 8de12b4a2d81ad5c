package dev.watchkeeper.internal.reconcile;

import java.time.Duration;
import java.time.Instant;

/**
 * A {@link RateLimit}'s token bucket, in the way of Go's {@code rate.Limiter.Reserve}: a reservation always succeeds
 * and may leave the bucket in debt; the debt, divided by the rate, is how long the reserver waits. So reservations
 * made at once are spaced {@code 1/qps} apart once the burst is spent. Time is passed in, so tests need no clock.
 */
final class TokenBucket {

    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final RateLimit limit;
    private double tokens;
    private Instant last;

    TokenBucket(RateLimit limit) {
        this.limit = limit;
        this.tokens = limit.burst();
    }

    RateLimit limit() {
        return limit;
    }

    /** Takes a token and returns how long after {@code now} it is the reserver's: zero while the burst lasts. */
    synchronized Duration reserve(Instant now) {
        refill(now);
        tokens -= 1;
        return wait(tokens);
    }

    /** How long a reservation made at {@code now} would wait, without making one. */
    synchronized Duration delay(Instant now) {
        refill(now);
        return wait(tokens - 1);
    }

    private void refill(Instant now) {
        if (last != null && now.isAfter(last)) {
            double elapsed = Duration.between(last, now).toNanos() / (double) NANOS_PER_SECOND;
            tokens = Math.min(limit.burst(), tokens + elapsed * limit.qps());
        }
        if (last == null || now.isAfter(last)) {
            last = now;
        }
    }

    private Duration wait(double balance) {
        return balance >= 0 ? Duration.ZERO : Duration.ofNanos(Math.round(-balance / limit.qps() * NANOS_PER_SECOND));
    }
}
