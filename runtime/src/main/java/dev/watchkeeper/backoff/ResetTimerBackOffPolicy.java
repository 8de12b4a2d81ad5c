package dev.watchkeeper.backoff;

import dev.watchkeeper.settings.InvalidSettingException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import org.springframework.retry.RetryContext;
import org.springframework.retry.backoff.BackOffContext;
import org.springframework.retry.backoff.BackOffInterruptedException;
import org.springframework.retry.backoff.BackOffPolicy;
import org.springframework.retry.backoff.Sleeper;
import org.springframework.retry.backoff.SleepingBackOffPolicy;

/**
 * Starts the wrapped policy over when the previous backoff was more than {@code resetAfter} ago (kube-rs
 * {@code ResetTimerBackoff}; the clock runs from the previous error). So a watcher that failed once an hour
 * ago waits the initial interval again, while one failing continuously keeps growing its delay even if
 * short successes interleave.
 *
 * <pre>{@code
 * BackOffPolicy policy = new ResetTimerBackOffPolicy(exponential, Duration.ofMinutes(2), clock);
 * }</pre>
 */
public final class ResetTimerBackOffPolicy implements SleepingBackOffPolicy<ResetTimerBackOffPolicy> {

    private final BackOffPolicy delegate;
    private final Duration resetAfter;
    private final Clock clock;

    public ResetTimerBackOffPolicy(BackOffPolicy delegate, Duration resetAfter, Clock clock) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
        this.resetAfter = Objects.requireNonNull(resetAfter, "resetAfter");
        this.clock = Objects.requireNonNull(clock, "clock");
        InvalidSettingException.requireNotNegative("resetAfter", resetAfter);
    }

    /** Passes the sleeper on when the wrapped policy sleeps through one; otherwise keeps it as it is. */
    @Override
    public ResetTimerBackOffPolicy withSleeper(Sleeper sleeper) {
        if (delegate instanceof SleepingBackOffPolicy<?> sleeping) {
            return new ResetTimerBackOffPolicy(sleeping.withSleeper(sleeper), resetAfter, clock);
        }
        return this;
    }

    @Override
    public BackOffContext start(RetryContext context) {
        return new TimedContext(context, delegate.start(context));
    }

    @Override
    public void backOff(BackOffContext backOffContext) throws BackOffInterruptedException {
        TimedContext timed = (TimedContext) backOffContext;
        Instant now = clock.instant();
        if (timed.lastBackOff != null && Duration.between(timed.lastBackOff, now).compareTo(resetAfter) > 0) {
            timed.delegateContext = delegate.start(timed.retryContext);
        }
        timed.lastBackOff = now;
        delegate.backOff(timed.delegateContext);
    }

    /** The wrapped policy. */
    public BackOffPolicy delegate() {
        return delegate;
    }

    public Duration resetAfter() {
        return resetAfter;
    }

    @Override
    public String toString() {
        return delegate + " reset after " + resetAfter;
    }

    private static final class TimedContext implements BackOffContext {
        private static final long serialVersionUID = 1L;
        final transient RetryContext retryContext;
        transient BackOffContext delegateContext;
        Instant lastBackOff;

        TimedContext(RetryContext retryContext, BackOffContext delegateContext) {
            this.retryContext = retryContext;
            this.delegateContext = delegateContext;
        }
    }
}
