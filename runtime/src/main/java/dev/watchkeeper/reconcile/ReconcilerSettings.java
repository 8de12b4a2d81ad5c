package dev.watchkeeper.reconcile;

import dev.watchkeeper.backoff.BackOffSettings;
import dev.watchkeeper.backoff.JitteredExponentialBackOffPolicy;
import dev.watchkeeper.settings.InvalidSettingException;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;
import org.springframework.retry.backoff.BackOffPolicy;

/**
 * How a controller runs.
 *
 * <pre>{@code
 * ReconcilerSettings settings = ReconcilerSettings.defaults()
 *         .withConcurrency(4)
 *         .withTriggers(Trigger.GENERATION);
 * }</pre>
 *
 * @param concurrency   the most reconciles at once (≥ 1)
 * @param backOffPolicy per-object error backoff; must be a {@code SleepingBackOffPolicy} (its delays are scheduled,
 *                      not slept); default client-go's per-item curve, 5 ms × 2ⁿ capped at 1000 s, no jitter
 * @param shutdownGrace how long {@code close} waits for running reconciles before interrupting them; default 30 s
 * @param resyncPeriod  how often every primary object is reconciled anyway (±10 % jitter); default 10 h,
 *                      {@link Duration#ZERO} = never
 * @param triggers      which primary changes enqueue; default {@link Trigger#ALL}
 * @param debounce      how long a key changed by a watch event waits before it is reconciled, counted from the first
 *                      event of a burst, so the burst makes one reconcile; requeues, retries and resyncs are not
 *                      delayed; default {@link Duration#ZERO} = off
 * @param shutdownDrain whether {@code stop} and {@code close} still reconcile the keys due at that moment, within the
 *                      shutdown grace, instead of dropping them (client-go's {@code ShutDownWithDrain}); a lost Lease
 *                      never drains; default {@code false}
 * @param rateLimit     an overall rate limit on error retries, combined with the per-object backoff by taking the
 *                      longer wait (client-go's {@code DefaultControllerRateLimiter}); {@code null} = none, the
 *                      default
 */
public record ReconcilerSettings(int concurrency, BackOffPolicy backOffPolicy, Duration shutdownGrace,
        Duration resyncPeriod, Set<Trigger> triggers, Duration debounce,
        boolean shutdownDrain, RateLimit rateLimit) {

    public ReconcilerSettings {
        if (concurrency < 1) {
            throw new InvalidSettingException("concurrency", concurrency, "must be at least 1");
        }
        ObjectBackOff.requireSleeping(backOffPolicy);
        Objects.requireNonNull(shutdownGrace, "shutdownGrace");
        Objects.requireNonNull(resyncPeriod, "resyncPeriod");
        InvalidSettingException.requireNotNegative("shutdownGrace", shutdownGrace);
        InvalidSettingException.requireNotNegative("resyncPeriod", resyncPeriod);
        Objects.requireNonNull(debounce, "debounce");
        InvalidSettingException.requireNotNegative("debounce", debounce);
        triggers = triggers == null || triggers.isEmpty() ? Set.of(Trigger.ALL) : Set.copyOf(triggers);
    }

    public static ReconcilerSettings defaults() {
        return new ReconcilerSettings(1, defaultBackOffPolicy(), Duration.ofSeconds(30), Duration.ofHours(10),
                Set.of(Trigger.ALL), Duration.ZERO, false, null);
    }

    /** client-go's per-item exponential failure rate limiter: 5 ms × 2ⁿ, capped at 1000 s, no jitter. */
    public static BackOffPolicy defaultBackOffPolicy() {
        return new JitteredExponentialBackOffPolicy(Duration.ofMillis(5), 2.0, Duration.ofSeconds(1000), 0.0);
    }

    public ReconcilerSettings withConcurrency(int concurrency) {
        return new ReconcilerSettings(concurrency, backOffPolicy, shutdownGrace, resyncPeriod, triggers, debounce,
                shutdownDrain, rateLimit);
    }

    public ReconcilerSettings withBackOffPolicy(BackOffPolicy policy) {
        return new ReconcilerSettings(concurrency, policy, shutdownGrace, resyncPeriod, triggers, debounce,
                shutdownDrain, rateLimit);
    }

    /**
     * The per-object backoff from numbers: initial interval, multiplier, max interval and jitter. The reset timer
     * and max elapsed time of {@link BackOffSettings} do not apply: an object's backoff resets on its next success,
     * and a failing object is retried for as long as it exists.
     */
    public ReconcilerSettings withBackOff(BackOffSettings settings) {
        return withBackOffPolicy(new JitteredExponentialBackOffPolicy(settings.initialInterval(),
                settings.multiplier(), settings.maxInterval(), settings.jitter()));
    }

    public ReconcilerSettings withShutdownGrace(Duration grace) {
        return new ReconcilerSettings(concurrency, backOffPolicy, grace, resyncPeriod, triggers, debounce,
                shutdownDrain, rateLimit);
    }

    public ReconcilerSettings withResyncPeriod(Duration period) {
        return new ReconcilerSettings(concurrency, backOffPolicy, shutdownGrace, period, triggers, debounce,
                shutdownDrain, rateLimit);
    }

    public ReconcilerSettings withTriggers(Trigger... triggers) {
        return withTriggers(triggers.length == 0 ? Set.of(Trigger.ALL) : EnumSet.of(triggers[0], triggers));
    }

    public ReconcilerSettings withTriggers(Set<Trigger> triggers) {
        return new ReconcilerSettings(concurrency, backOffPolicy, shutdownGrace, resyncPeriod, triggers, debounce,
                shutdownDrain, rateLimit);
    }

    public ReconcilerSettings withDebounce(Duration debounce) {
        return new ReconcilerSettings(concurrency, backOffPolicy, shutdownGrace, resyncPeriod, triggers, debounce,
                shutdownDrain, rateLimit);
    }

    public ReconcilerSettings withShutdownDrain(boolean drain) {
        return new ReconcilerSettings(concurrency, backOffPolicy, shutdownGrace, resyncPeriod, triggers, debounce,
                drain, rateLimit);
    }

    /** An overall rate limit on error retries, {@code null} for none. */
    public ReconcilerSettings withRateLimit(RateLimit limit) {
        return new ReconcilerSettings(concurrency, backOffPolicy, shutdownGrace, resyncPeriod, triggers, debounce,
                shutdownDrain, limit);
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
}
