package dev.watchkeeper.internal.watch;

import dev.watchkeeper.watch.WatchError;
import dev.watchkeeper.internal.backoff.BackOffSleeper;
import dev.watchkeeper.internal.backoff.TimeSource;
import dev.watchkeeper.internal.text.Plural;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Objects;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.retry.RetryContext;
import org.springframework.retry.RetryPolicy;
import org.springframework.retry.backoff.BackOffContext;
import org.springframework.retry.backoff.BackOffInterruptedException;
import org.springframework.retry.backoff.BackOffPolicy;
import org.springframework.retry.backoff.SleepingBackOffPolicy;

/**
 * A watcher's failures and the waits between them (docs/semantics.md §6): the one place that counts them, decides
 * when they start over, asks the {@link RetryPolicy} whether to go on and lets the {@link BackOffPolicy} wait.
 *
 * <p>It holds the two Spring Retry contexts and decides their lives, as a {@code RetryTemplate} does for its own:
 * the retry context is the <em>streak</em> (opened again when a step makes progress), the backoff context the
 * <em>curve</em> (started again on {@link #retryNow()}; progress alone does not reset it, as in client-go). A failure
 * more than {@code resetAfter} after the previous one starts both over. The policies only answer within a context:
 * the retry policy whether to give up, the backoff policy how long to wait, through a {@link BackOffSleeper}.
 * It logs each failure it waits for, giving up, and the recovery, on the watcher's logger.
 *
 * <pre>{@code
 * if (!streak.failed(step.error())) {
 *     return; // gave up
 * }
 * streak.await(step.error());
 * }</pre>
 */
final class FailureStreak {

    private static final Logger log = LoggerFactory.getLogger(Watcher.class);

    private final String name;
    private final RetryPolicy retryPolicy;
    private final BackOffPolicy backOffPolicy;
    private final boolean reportsDelays;
    private final BackOffSleeper sleeper;
    private final Duration resetAfter;
    /** The backoff as snapshots show it, made once: a snapshot is built at every transition. */
    private final String description;
    private final Clock clock;
    private volatile boolean restartRequested;
    private volatile boolean waiting;

    // Used by the watcher's thread only.
    private RetryContext streak;
    private BackOffContext curve;
    private WatchError waitingFor;
    private Instant lastFailureAt;
    private Instant failingSince;
    private int failures;

    /**
     * @param name       the watcher's name, for logs
     * @param policy     how long to wait; a {@link SleepingBackOffPolicy} sleeps through this streak's sleeper
     * @param resetAfter a failure this long after the previous one starts streak and curve over
     * @param onWait     told the delay and the next attempt time as each wait begins
     */
    FailureStreak(String name, RetryPolicy retryPolicy, BackOffPolicy policy, Duration resetAfter, TimeSource time,
            BiConsumer<Duration, Instant> onWait) {
        this.name = Objects.requireNonNull(name, "name");
        this.retryPolicy = Objects.requireNonNull(retryPolicy, "retryPolicy");
        this.resetAfter = Objects.requireNonNull(resetAfter, "resetAfter");
        this.clock = time.clock();
        this.sleeper = new BackOffSleeper(time, (delay, nextAttemptAt) -> {
            log.warn("watcher {}: {}; backing off for {} ms", name, waitingFor.message(), delay.toMillis());
            onWait.accept(delay, nextAttemptAt);
        });
        this.reportsDelays = policy instanceof SleepingBackOffPolicy<?>;
        this.backOffPolicy = policy instanceof SleepingBackOffPolicy<?> sleeping ? sleeping.withSleeper(sleeper) : policy;
        this.streak = retryPolicy.open(null);
        this.curve = backOffPolicy.start(streak);
        this.description = backOffPolicy + " reset after " + resetAfter;
    }

    /** The backoff in use, as the snapshot shows it. */
    String description() {
        return description;
    }

    /** Failures since the last progress. */
    int consecutiveFailures() {
        return failures;
    }

    /** A step made progress: the streak is over (logged as a recovery if there was one). */
    void progressed() {
        if (failures == 0) {
            return;
        }
        Duration failing = Duration.between(failingSince, clock.instant());
        log.info("watcher {} recovered after {} in {}", name, Plural.count(failures, "failure"),
                String.format(Locale.ROOT, "%.1f s", failing.toMillis() / 1000.0));
        failures = 0;
        retryPolicy.close(streak);
        streak = retryPolicy.open(null);
    }

    /** A step failed with {@code error}: counts it and answers whether the retry policy lets the watcher go on. */
    boolean failed(WatchError error) {
        Instant now = clock.instant();
        if (lastFailureAt != null && Duration.between(lastFailureAt, now).compareTo(resetAfter) > 0) {
            retryPolicy.close(streak);
            streak = retryPolicy.open(null);
            curve = backOffPolicy.start(streak);
        }
        lastFailureAt = now;
        if (failures++ == 0) {
            failingSince = now;
        }
        retryPolicy.registerThrowable(streak, new WatchFailureException(error));
        if (retryPolicy.canRetry(streak)) {
            return true;
        }
        log.error("watcher {} gives up after failing for longer than its backoff allows: {}", name, error.message());
        return false;
    }

    /**
     * Waits after {@code error} as the backoff policy says, at least its {@code Retry-After}.
     *
     * @throws BackOffInterruptedException when the watcher is closed or its thread interrupted meanwhile
     */
    void await(WatchError error) {
        if (restartRequested) {
            restartRequested = false;
            curve = backOffPolicy.start(streak);
        }
        waitingFor = error;
        if (!reportsDelays) {
            // A policy that sleeps by itself never reaches the sleeper, which logs the failure with its delay.
            log.warn("watcher {}: {}; backing off as its own policy decides", name, error.message());
        }
        sleeper.atLeast(error.retryAfter());
        waiting = true;
        try {
            backOffPolicy.backOff(curve);
        } finally {
            waiting = false;
        }
    }

    /** Ends the current wait, and starts the curve over at the next one. Any thread. */
    void retryNow() {
        restartRequested = true;
        if (waiting) {
            sleeper.wakeUp();
        }
    }

    /** Ends the current wait (the curve goes on where it was), so the watcher starts over at once. Any thread. */
    void wakeUp() {
        if (waiting) {
            sleeper.wakeUp();
        }
    }

    /** Ends the current wait and every later one with a {@link BackOffInterruptedException}. Any thread. */
    void close() {
        sleeper.close();
    }
}
