package dev.watchkeeper.internal.reconcile;

import dev.watchkeeper.reconcile.ReconcilerSnapshot;
import dev.watchkeeper.reconcile.Trigger;
import dev.watchkeeper.reconcile.TriggerFilter;
import dev.watchkeeper.internal.backoff.BackOffSettings;
import dev.watchkeeper.internal.backoff.JitteredExponentialBackOffPolicy;
import dev.watchkeeper.internal.settings.InvalidSettingException;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;
import org.springframework.format.datetime.standard.DurationFormatterUtils;
import org.springframework.retry.backoff.BackOffPolicy;
import org.springframework.retry.backoff.SleepingBackOffPolicy;

/**
 * How a reconciler runs. The defaults are the {@code DEFAULT_*} constants, written as Spring Boot binds them
 * ({@code 30s}), so the Boot layer declares its property defaults with them and the two cannot differ.
 *
 * <pre>{@code
 * ReconcilerSettings settings = ReconcilerSettings.defaults()
 *         .withConcurrency(4)
 *         .withTriggers(Trigger.GENERATION);
 * }</pre>
 *
 * @param concurrency   the most reconciles at once (≥ 1); default {@value #DEFAULT_CONCURRENCY}
 * @param backOffPolicy per-object error backoff; must be a {@code SleepingBackOffPolicy} (its delays are scheduled,
 *                      not slept); default client-go's per-item curve, {@link #defaultBackOff()}
 * @param shutdownGrace how long {@code close} waits for running reconciles before interrupting them; default
 *                      {@value #DEFAULT_SHUTDOWN_GRACE}
 * @param resyncPeriod  how often every primary object is reconciled anyway (±10 % jitter); default
 *                      {@value #DEFAULT_RESYNC_PERIOD}, {@link Duration#ZERO} = never
 * @param triggers      which primary changes enqueue; default {@link Trigger#ALL}
 * @param debounce      how long a key changed by a watch event waits before it is reconciled, counted from the first
 *                      event of a burst, so the burst makes one reconcile; requeues, retries and resyncs are not
 *                      delayed; default {@value #DEFAULT_DEBOUNCE} = off
 * @param shutdownDrain whether {@code stop} and {@code close} still reconcile the keys due at that moment, within the
 *                      shutdown grace, instead of dropping them (client-go's {@code ShutDownWithDrain}); a lost Lease
 *                      never drains; default {@value #DEFAULT_SHUTDOWN_DRAIN}
 * @param rateLimit     an overall rate limit on error retries, combined with the per-object backoff by taking the
 *                      longer wait (client-go's {@code DefaultControllerRateLimiter}); {@code null} = none, the
 *                      default
 * @param maxLowPriorityWait how long a key queued by a list, relist or resync (low priority) waits while keys of
 *                      live changes, requeues and retries go first, before the two take turns; default
 *                      {@value #DEFAULT_MAX_LOW_PRIORITY_WAIT}, {@link Duration#ZERO} = no priorities (one FIFO)
 * @param readYourWritesTimeout how long a key whose watchers have not yet delivered a version this reconciler wrote
 *                      (of its object, or of a child its reconcile wrote) waits before it is reconciled anyway, holding
 *                      no worker; default {@value #DEFAULT_READ_YOUR_WRITES_TIMEOUT}, {@link Duration#ZERO} = never
 *                      waits (the fence is off)
 * @param timeout       how long one reconcile (or cleanup) may run before its worker is interrupted and it counts as
 *                      failed, retried with the backoff (docs/semantics.md, "Reconcile timeout"); default
 *                      {@value #DEFAULT_TIMEOUT} = none
 * @param writeBudget   a token bucket on the writes a reconcile makes through its context (apply, status, conditions,
 *                      finalizer patches; not Events): a write past the budget waits for its token inside the
 *                      reconcile; {@code null} = none, the default
 */
public record ReconcilerSettings(int concurrency, BackOffPolicy backOffPolicy, Duration shutdownGrace,
        Duration resyncPeriod, Set<Trigger> triggers, Duration debounce,
        boolean shutdownDrain, RateLimit rateLimit, Duration maxLowPriorityWait, Duration readYourWritesTimeout,
        Duration timeout, RateLimit writeBudget) {

    /**
     * Reconciles at once; also the default of {@code @Reconciler}'s {@code concurrency}. Eight, not one: a reconcile
     * mostly waits for the API server, so workers cost little (virtual threads when Boot's are on), and the server,
     * not the machine, sets the pace. Measured end to end on two cores against a real API server (2,000 new objects,
     * four writes each), eight workers converged 1.8× sooner than one, within 1.24× of a bare client sending the same
     * writes on eight threads. One key is still never reconciled twice at once.
     */
    public static final int DEFAULT_CONCURRENCY = 8;

    /** How long running reconciles may finish on close. */
    public static final String DEFAULT_SHUTDOWN_GRACE = "30s";

    /** How often every object is reconciled anyway. */
    public static final String DEFAULT_RESYNC_PERIOD = "10h";

    /** No debounce. */
    public static final String DEFAULT_DEBOUNCE = "0s";

    /**
     * How long a key waits for its own writes to be delivered. A watch delivers a write within milliseconds unless
     * the watch is being re-established or the API server is overloaded; five seconds covers a reconnect with a
     * short backoff, and is short enough that a lost event (a write whose watch event never comes, as after a relist
     * that skipped it) delays a reconcile less than a user would notice as stuck.
     */
    public static final String DEFAULT_READ_YOUR_WRITES_TIMEOUT = "5s";

    /** Queued keys are dropped on close. */
    public static final String DEFAULT_SHUTDOWN_DRAIN = "false";

    /**
     * How long the oldest low-priority key waits before it takes turns with the others. Long enough that a burst of
     * live changes during a restart's backlog is served first (a few seconds of work at typical rates), short enough
     * that the backlog, and with it the drift a restart is meant to correct, is never put off for long when live
     * changes keep coming; taking turns costs those changes at most one reconcile each.
     */
    public static final String DEFAULT_MAX_LOW_PRIORITY_WAIT = "10s";

    /**
     * No reconcile timeout, as in controller-runtime: only the reconcile knows how long its work may take, and an
     * interrupt is safe only in code that expects one. Calls through the client are bounded by its read timeout
     * anyway, so a reconcile blocks for ever only in its own code; set a bound to have such a reconcile interrupted,
     * retried, and reported stuck when it ignores the interrupt.
     */
    public static final String DEFAULT_TIMEOUT = "0s";

    /**
     * Writes per second of a {@link #withWriteBudget write budget} the Boot layer turns on without numbers of its own:
     * controller-runtime's client default.
     */
    public static final String DEFAULT_WRITE_BUDGET_QPS = "20";

    /** Writes at once of a write budget the Boot layer turns on without numbers: controller-runtime's client default. */
    public static final String DEFAULT_WRITE_BUDGET_BURST = "30";

    /** client-go's per-item failure rate limiter: the first retry delay. */
    public static final String DEFAULT_BACKOFF_INITIAL_INTERVAL = "5ms";

    /** client-go's per-item failure rate limiter: growth per consecutive failure. */
    public static final String DEFAULT_BACKOFF_MULTIPLIER = "2.0";

    /** client-go's per-item failure rate limiter: the cap of the delay. */
    public static final String DEFAULT_BACKOFF_MAX_INTERVAL = "1000s";

    /** client-go's per-item failure rate limiter: no jitter. */
    public static final String DEFAULT_BACKOFF_JITTER = "0.0";

    public ReconcilerSettings {
        if (concurrency < 1) {
            throw new InvalidSettingException("concurrency", concurrency, "must be at least 1");
        }
        requireSleeping(backOffPolicy);
        Objects.requireNonNull(shutdownGrace, "shutdownGrace");
        Objects.requireNonNull(resyncPeriod, "resyncPeriod");
        InvalidSettingException.requireNotNegative("shutdownGrace", shutdownGrace);
        InvalidSettingException.requireNotNegative("resyncPeriod", resyncPeriod);
        Objects.requireNonNull(debounce, "debounce");
        InvalidSettingException.requireNotNegative("debounce", debounce);
        Objects.requireNonNull(maxLowPriorityWait, "maxLowPriorityWait");
        InvalidSettingException.requireNotNegative("maxLowPriorityWait", maxLowPriorityWait);
        Objects.requireNonNull(readYourWritesTimeout, "readYourWritesTimeout");
        InvalidSettingException.requireNotNegative("readYourWritesTimeout", readYourWritesTimeout);
        Objects.requireNonNull(timeout, "timeout");
        InvalidSettingException.requireNotNegative("timeout", timeout);
        triggers = triggers == null || triggers.isEmpty() ? Set.of(Trigger.ALL) : Set.copyOf(triggers);
    }

    /** The {@code DEFAULT_*} constants, every trigger, no rate limit, no write budget. */
    public static ReconcilerSettings defaults() {
        return new ReconcilerSettings(DEFAULT_CONCURRENCY, defaultBackOffPolicy(),
                DurationFormatterUtils.detectAndParse(DEFAULT_SHUTDOWN_GRACE),
                DurationFormatterUtils.detectAndParse(DEFAULT_RESYNC_PERIOD), Set.of(Trigger.ALL),
                DurationFormatterUtils.detectAndParse(DEFAULT_DEBOUNCE), Boolean.parseBoolean(DEFAULT_SHUTDOWN_DRAIN),
                null, DurationFormatterUtils.detectAndParse(DEFAULT_MAX_LOW_PRIORITY_WAIT),
                DurationFormatterUtils.detectAndParse(DEFAULT_READ_YOUR_WRITES_TIMEOUT),
                DurationFormatterUtils.detectAndParse(DEFAULT_TIMEOUT), null);
    }

    /**
     * client-go's per-item exponential failure rate limiter, the {@code DEFAULT_BACKOFF_*} constants
     * ({@value #DEFAULT_BACKOFF_INITIAL_INTERVAL} × {@value #DEFAULT_BACKOFF_MULTIPLIER}ⁿ, capped at
     * {@value #DEFAULT_BACKOFF_MAX_INTERVAL}, jitter {@value #DEFAULT_BACKOFF_JITTER}), as the numbers
     * {@link #withBackOff(BackOffSettings)} takes.
     */
    public static BackOffSettings defaultBackOff() {
        return new BackOffSettings(DurationFormatterUtils.detectAndParse(DEFAULT_BACKOFF_INITIAL_INTERVAL),
                Double.parseDouble(DEFAULT_BACKOFF_MULTIPLIER),
                DurationFormatterUtils.detectAndParse(DEFAULT_BACKOFF_MAX_INTERVAL),
                Double.parseDouble(DEFAULT_BACKOFF_JITTER), Duration.ZERO, null);
    }

    /** The policy of {@link #defaultBackOff()}. */
    public static BackOffPolicy defaultBackOffPolicy() {
        return policy(defaultBackOff());
    }

    /** These settings with another number of reconciles at once. */
    public ReconcilerSettings withConcurrency(int concurrency) {
        return new ReconcilerSettings(concurrency, backOffPolicy, shutdownGrace, resyncPeriod, triggers, debounce,
                shutdownDrain, rateLimit, maxLowPriorityWait, readYourWritesTimeout, timeout, writeBudget);
    }

    /** These settings with another per-object retry policy (a {@code SleepingBackOffPolicy}). */
    public ReconcilerSettings withBackOffPolicy(BackOffPolicy policy) {
        return new ReconcilerSettings(concurrency, policy, shutdownGrace, resyncPeriod, triggers, debounce,
                shutdownDrain, rateLimit, maxLowPriorityWait, readYourWritesTimeout, timeout, writeBudget);
    }

    /**
     * The per-object backoff from numbers: initial interval, multiplier, max interval and jitter. The reset timer
     * and max elapsed time of {@link BackOffSettings} do not apply: an object's backoff resets on its next success,
     * and a failing object is retried for as long as it exists.
     */
    public ReconcilerSettings withBackOff(BackOffSettings settings) {
        return withBackOffPolicy(policy(settings));
    }

    /** The endpoint's description of {@code policy}: its numbers when it is the built-in one. */
    public static ReconcilerSnapshot.BackOff describe(BackOffPolicy policy) {
        if (policy instanceof JitteredExponentialBackOffPolicy exponential) {
            return new ReconcilerSnapshot.BackOff("exponential-jitter", exponential.initialInterval(),
                    exponential.maxInterval(), exponential.multiplier(), exponential.jitter());
        }
        return new ReconcilerSnapshot.BackOff(String.valueOf(policy), null, null, null, null);
    }

    private static BackOffPolicy policy(BackOffSettings settings) {
        return new JitteredExponentialBackOffPolicy(settings.initialInterval(), settings.multiplier(),
                settings.maxInterval(), settings.jitter());
    }

    /** These settings with another wait for running reconciles on shutdown. */
    public ReconcilerSettings withShutdownGrace(Duration grace) {
        return new ReconcilerSettings(concurrency, backOffPolicy, grace, resyncPeriod, triggers, debounce,
                shutdownDrain, rateLimit, maxLowPriorityWait, readYourWritesTimeout, timeout, writeBudget);
    }

    /** These settings with another resync period ({@code 0}: none). */
    public ReconcilerSettings withResyncPeriod(Duration period) {
        return new ReconcilerSettings(concurrency, backOffPolicy, shutdownGrace, period, triggers, debounce,
                shutdownDrain, rateLimit, maxLowPriorityWait, readYourWritesTimeout, timeout, writeBudget);
    }

    /** These settings with other triggers. */
    public ReconcilerSettings withTriggers(Trigger... triggers) {
        return withTriggers(triggers.length == 0 ? Set.of(Trigger.ALL) : EnumSet.of(triggers[0], triggers));
    }

    /** These settings with other triggers. */
    public ReconcilerSettings withTriggers(Set<Trigger> triggers) {
        return new ReconcilerSettings(concurrency, backOffPolicy, shutdownGrace, resyncPeriod, triggers, debounce,
                shutdownDrain, rateLimit, maxLowPriorityWait, readYourWritesTimeout, timeout, writeBudget);
    }

    /** These settings with another debounce of event-triggered reconciles. */
    public ReconcilerSettings withDebounce(Duration debounce) {
        return new ReconcilerSettings(concurrency, backOffPolicy, shutdownGrace, resyncPeriod, triggers, debounce,
                shutdownDrain, rateLimit, maxLowPriorityWait, readYourWritesTimeout, timeout, writeBudget);
    }

    /** These settings, reconciling the keys due at shutdown within the grace, or dropping them. */
    public ReconcilerSettings withShutdownDrain(boolean drain) {
        return new ReconcilerSettings(concurrency, backOffPolicy, shutdownGrace, resyncPeriod, triggers, debounce,
                drain, rateLimit, maxLowPriorityWait, readYourWritesTimeout, timeout, writeBudget);
    }

    /** An overall rate limit on error retries, {@code null} for none. */
    public ReconcilerSettings withRateLimit(RateLimit limit) {
        return new ReconcilerSettings(concurrency, backOffPolicy, shutdownGrace, resyncPeriod, triggers, debounce,
                shutdownDrain, limit, maxLowPriorityWait, readYourWritesTimeout, timeout, writeBudget);
    }

    /** These settings with another wait for a key's own writes to be delivered ({@code 0}: none). */
    public ReconcilerSettings withReadYourWritesTimeout(Duration wait) {
        return new ReconcilerSettings(concurrency, backOffPolicy, shutdownGrace, resyncPeriod, triggers, debounce,
                shutdownDrain, rateLimit, maxLowPriorityWait, wait, timeout, writeBudget);
    }

    /** These settings with another wait of low-priority keys before they take turns ({@code 0}: no priorities). */
    public ReconcilerSettings withMaxLowPriorityWait(Duration wait) {
        return new ReconcilerSettings(concurrency, backOffPolicy, shutdownGrace, resyncPeriod, triggers, debounce,
                shutdownDrain, rateLimit, wait, readYourWritesTimeout, timeout, writeBudget);
    }

    /** These settings with another reconcile timeout ({@code 0}: none). */
    public ReconcilerSettings withTimeout(Duration timeout) {
        return new ReconcilerSettings(concurrency, backOffPolicy, shutdownGrace, resyncPeriod, triggers, debounce,
                shutdownDrain, rateLimit, maxLowPriorityWait, readYourWritesTimeout, timeout, writeBudget);
    }

    /** These settings with a budget on reconciles' writes, {@code null} for none. */
    public ReconcilerSettings withWriteBudget(RateLimit budget) {
        return new ReconcilerSettings(concurrency, backOffPolicy, shutdownGrace, resyncPeriod, triggers, debounce,
                shutdownDrain, rateLimit, maxLowPriorityWait, readYourWritesTimeout, timeout, budget);
    }

    /** Whether reconciles have a {@link #timeout}. */
    public boolean hasTimeout() {
        return !timeout.isZero();
    }

    /** The filter the triggers make, or {@code null} when {@link Trigger#ALL} is among them. */
    public <T extends io.kubernetes.client.common.KubernetesObject> TriggerFilter<T> triggerFilter() {
        if (triggers.contains(Trigger.ALL)) {
            return null;
        }
        TriggerFilter<T> combined = null;
        for (Trigger trigger : triggers) {
            TriggerFilter<T> filter = trigger.filter();
            combined = combined == null ? filter : combined.or(filter);
        }
        return combined;
    }

    /** Checks that {@code policy} can serve as a per-object backoff, with a message that says why it must. */
    private static void requireSleeping(BackOffPolicy policy) {
        Objects.requireNonNull(policy, "per-object backoff policy");
        if (policy instanceof SleepingBackOffPolicy<?>) {
            return;
        }
        throw new IllegalArgumentException("a per-object backoff policy must be a SleepingBackOffPolicy, so each "
                + "delay can be scheduled instead of blocking a worker; " + policy.getClass().getName()
                + " is not (wrap your numbers in JitteredExponentialBackOffPolicy, for instance)");
    }
}
