package dev.watchkeeper.backoff;

import dev.watchkeeper.settings.InvalidSettingException;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import org.springframework.retry.RetryPolicy;
import org.springframework.retry.backoff.BackOffPolicy;

/**
 * The numbers of a watcher's backoff. {@link #clientGo()} gives client-go's reflector defaults: 800 ms doubling
 * to 30 s with jitter 1.0, reset after 2 minutes without a backoff, retrying forever.
 *
 * <pre>{@code
 * BackOffSettings settings = BackOffSettings.clientGo().withMaxElapsedTime(Duration.ofMinutes(10));
 * BackOffPolicy policy = settings.backOffPolicy();
 * }</pre>
 *
 * @param initialInterval first base delay
 * @param multiplier      growth per consecutive failure
 * @param maxInterval     cap of the base delay (jitter comes on top)
 * @param jitter          random extra fraction of the base delay
 * @param resetAfter      start over from the initial interval (and a new streak) when a failure comes longer than
 *                        this after the previous one; the watcher applies it, to any policy
 * @param maxElapsedTime  give up (phase STOPPED) after a failure streak this long; {@code null} = never
 */
public record BackOffSettings(Duration initialInterval, double multiplier, Duration maxInterval, double jitter,
        Duration resetAfter, Duration maxElapsedTime) {

    public BackOffSettings {
        Objects.requireNonNull(initialInterval, "initialInterval");
        Objects.requireNonNull(maxInterval, "maxInterval");
        Objects.requireNonNull(resetAfter, "resetAfter");
        // The policy holds the rules of the numbers; building it here fails as early as the settings are made.
        new JitteredExponentialBackOffPolicy(initialInterval, multiplier, maxInterval, jitter);
        InvalidSettingException.requireNotNegative("resetAfter", resetAfter);
        if (maxElapsedTime != null) {
            InvalidSettingException.requireNotNegative("maxElapsedTime", maxElapsedTime);
        }
    }

    /** client-go's reflector backoff: 800 ms, ×2, cap 30 s, jitter 1.0, reset after 120 s, forever. */
    public static BackOffSettings clientGo() {
        return new BackOffSettings(Duration.ofMillis(800), 2.0, Duration.ofSeconds(30), 1.0,
                Duration.ofSeconds(120), null);
    }

    public BackOffSettings withMaxElapsedTime(Duration maxElapsedTime) {
        return new BackOffSettings(initialInterval, multiplier, maxInterval, jitter, resetAfter, maxElapsedTime);
    }

    /** The jittered exponential policy of these numbers (the watcher starts it over after {@link #resetAfter}). */
    public BackOffPolicy backOffPolicy() {
        return new JitteredExponentialBackOffPolicy(initialInterval, multiplier, maxInterval, jitter);
    }

    /** The policy deciding when to give up. */
    public RetryPolicy retryPolicy(Clock clock) {
        return new MaxElapsedTimeRetryPolicy(maxElapsedTime, clock);
    }
}
