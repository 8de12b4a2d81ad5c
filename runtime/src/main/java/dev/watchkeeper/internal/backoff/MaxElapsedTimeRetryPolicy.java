package dev.watchkeeper.internal.backoff;

import dev.watchkeeper.internal.settings.InvalidSettingException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import org.springframework.retry.RetryContext;
import org.springframework.retry.RetryPolicy;
import org.springframework.retry.context.RetryContextSupport;

/**
 * Gives up once the current failure streak has lasted longer than {@code maxElapsedTime} of wall-clock time,
 * measured from the streak's first failure on an injected clock; {@code null} retries forever. A streak ends
 * when its owner opens a new context (after a success, or when a failure comes long after the previous one).
 * Spring Retry's {@code TimeoutRetryPolicy} measures from when the context was opened on the system clock, which
 * is neither the streak's start nor testable.
 */
public final class MaxElapsedTimeRetryPolicy implements RetryPolicy {

    private final Duration maxElapsedTime;
    private final Clock clock;

    /**
     * Gives up once a failure streak is longer than {@code maxElapsedTime} by {@code clock}; {@code null} never gives
     * up.
     */
    public MaxElapsedTimeRetryPolicy(Duration maxElapsedTime, Clock clock) {
        if (maxElapsedTime != null) {
            InvalidSettingException.requireNotNegative("maxElapsedTime", maxElapsedTime);
        }
        this.maxElapsedTime = maxElapsedTime;
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public boolean canRetry(RetryContext context) {
        Instant first = ((StreakContext) context).firstFailure;
        return maxElapsedTime == null || first == null
                || Duration.between(first, clock.instant()).compareTo(maxElapsedTime) <= 0;
    }

    @Override
    public RetryContext open(RetryContext parent) {
        return new StreakContext(parent);
    }

    @Override
    public void close(RetryContext context) {
    }

    @Override
    public void registerThrowable(RetryContext context, Throwable throwable) {
        StreakContext streak = (StreakContext) context;
        if (streak.firstFailure == null) {
            streak.firstFailure = clock.instant();
        }
        streak.registerThrowable(throwable);
    }

    /** The limit, or {@code null} when retrying forever. */
    public Duration maxElapsedTime() {
        return maxElapsedTime;
    }

    private static final class StreakContext extends RetryContextSupport {
        private static final long serialVersionUID = 1L;
        Instant firstFailure;

        StreakContext(RetryContext parent) {
            super(parent);
        }
    }
}
