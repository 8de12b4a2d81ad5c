package dev.watchkeeper.internal.backoff;

import dev.watchkeeper.internal.settings.InvalidSettingException;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import org.springframework.retry.RetryPolicy;
import org.springframework.format.datetime.standard.DurationFormatterUtils;
import org.springframework.retry.backoff.BackOffPolicy;

/**
 * The numbers of a watcher's backoff. {@link #clientGo()} gives client-go's reflector defaults, the {@code DEFAULT_*}
 * constants: {@value #DEFAULT_INITIAL_INTERVAL} growing by {@value #DEFAULT_MULTIPLIER} up to
 * {@value #DEFAULT_MAX_INTERVAL} with jitter {@value #DEFAULT_JITTER}, reset after {@value #DEFAULT_RESET_AFTER}
 * without a backoff, retrying forever. The constants are written as Spring Boot binds them ({@code 800ms}), so the
 * Boot layer declares its property defaults with them and the two cannot differ.
 *
 * <pre>{@code
 * BackOffSettings settings = BackOffSettings.clientGo().withMaxElapsedTime(Duration.ofMinutes(10));
 * BackOffPolicy policy = settings.backOffPolicy();
 * }</pre>
 *
 * @param initialInterval first base delay
 * @param multiplier      growth per consecutive failure
 * @param maxInterval     cap of the base delay (jitter comes on top)
 * @param jitter          random extra fraction of the base delay: each wait is {@code d + rand·jitter·d}; above 1 is
 *                        allowed, as client-go's {@code wait.Jitter(d, maxFactor)} allows it (its leader election
 *                        uses 1.2): the waits then spread over {@code [d, (1 + jitter)·d)}
 * @param resetAfter      start over from the initial interval (and a new streak) when a failure comes longer than
 *                        this after the previous one; the watcher applies it, to any policy
 * @param maxElapsedTime  give up (phase STOPPED) after a failure streak this long; {@code null} = never
 */
public record BackOffSettings(Duration initialInterval, double multiplier, Duration maxInterval, double jitter,
        Duration resetAfter, Duration maxElapsedTime) {

    /** client-go's reflector: the first wait. */
    public static final String DEFAULT_INITIAL_INTERVAL = "800ms";

    /** client-go's reflector: growth per failure. */
    public static final String DEFAULT_MULTIPLIER = "2.0";

    /** client-go's reflector: the cap of the base delay. */
    public static final String DEFAULT_MAX_INTERVAL = "30s";

    /** client-go's reflector: up to one more base delay at random. */
    public static final String DEFAULT_JITTER = "1.0";

    /** client-go's reflector: start over after this long without a backoff. */
    public static final String DEFAULT_RESET_AFTER = "2m";

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

    /** client-go's reflector backoff, the {@code DEFAULT_*} constants, retrying forever. */
    public static BackOffSettings clientGo() {
        return new BackOffSettings(DurationFormatterUtils.detectAndParse(DEFAULT_INITIAL_INTERVAL),
                Double.parseDouble(DEFAULT_MULTIPLIER), DurationFormatterUtils.detectAndParse(DEFAULT_MAX_INTERVAL),
                Double.parseDouble(DEFAULT_JITTER), DurationFormatterUtils.detectAndParse(DEFAULT_RESET_AFTER), null);
    }

    /** These settings, giving up after a failure streak this long ({@code null}: never). */
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
