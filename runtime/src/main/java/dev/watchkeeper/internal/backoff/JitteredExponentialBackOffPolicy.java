package dev.watchkeeper.internal.backoff;

import dev.watchkeeper.internal.settings.InvalidSettingException;
import java.time.Duration;
import java.util.Objects;
import java.util.function.DoubleSupplier;
import java.util.concurrent.ThreadLocalRandom;
import org.springframework.retry.RetryContext;
import org.springframework.retry.backoff.BackOffContext;
import org.springframework.retry.backoff.BackOffInterruptedException;
import org.springframework.retry.backoff.Sleeper;
import org.springframework.retry.backoff.SleepingBackOffPolicy;
import org.springframework.retry.backoff.ThreadWaitSleeper;

/**
 * Exponential backoff with client-go's jitter: the n-th wait is {@code d + rand·jitter·d} where
 * {@code d = min(initial·multiplierⁿ, max)}. With client-go's numbers (800 ms, ×2, cap 30 s, jitter 1.0) the waits
 * fall in [0.8, 1.6) s, [1.6, 3.2) s, … and finally [30, 60) s.
 *
 * <pre>{@code
 * BackOffPolicy policy = new JitteredExponentialBackOffPolicy(
 *         Duration.ofMillis(800), 2.0, Duration.ofSeconds(30), 1.0).withSleeper(sleeper);
 * }</pre>
 *
 * Unlike Spring Retry's {@code ExponentialRandomBackOffPolicy}, whose randomness scales with the multiplier,
 * the spread here is set by the jitter factor alone, so the numbers match client-go and kube-rs.
 */
public final class JitteredExponentialBackOffPolicy
        implements SleepingBackOffPolicy<JitteredExponentialBackOffPolicy> {

    private final Duration initialInterval;
    private final double multiplier;
    private final Duration maxInterval;
    private final double jitter;
    private final Sleeper sleeper;
    private final DoubleSupplier random;

    /**
     * @param initialInterval the first base delay (&gt; 0)
     * @param multiplier      growth per failure (≥ 1)
     * @param maxInterval     cap of the base delay (≥ initial)
     * @param jitter          extra random fraction of the base delay (≥ 0); 0 means none
     */
    public JitteredExponentialBackOffPolicy(Duration initialInterval, double multiplier, Duration maxInterval,
            double jitter) {
        this(initialInterval, multiplier, maxInterval, jitter, new ThreadWaitSleeper(),
                () -> ThreadLocalRandom.current().nextDouble());
    }

    private JitteredExponentialBackOffPolicy(Duration initialInterval, double multiplier, Duration maxInterval,
            double jitter, Sleeper sleeper, DoubleSupplier random) {
        Objects.requireNonNull(initialInterval, "initialInterval");
        Objects.requireNonNull(maxInterval, "maxInterval");
        InvalidSettingException.requirePositive("initialInterval", initialInterval);
        if (multiplier < 1.0) {
            throw new InvalidSettingException("multiplier", multiplier, "must be at least 1");
        }
        if (maxInterval.compareTo(initialInterval) < 0) {
            throw new InvalidSettingException("maxInterval", maxInterval,
                    "must not be below the initial interval " + initialInterval);
        }
        if (jitter < 0) {
            throw new InvalidSettingException("jitter", jitter, "must not be negative");
        }
        this.initialInterval = initialInterval;
        this.multiplier = multiplier;
        this.maxInterval = maxInterval;
        this.jitter = jitter;
        this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
        this.random = Objects.requireNonNull(random, "random");
    }

    @Override
    public JitteredExponentialBackOffPolicy withSleeper(Sleeper sleeper) {
        return new JitteredExponentialBackOffPolicy(initialInterval, multiplier, maxInterval, jitter, sleeper, random);
    }

    /** The same policy drawing its jitter from {@code random} (values in [0, 1)); for deterministic tests. */
    public JitteredExponentialBackOffPolicy withRandom(DoubleSupplier random) {
        return new JitteredExponentialBackOffPolicy(initialInterval, multiplier, maxInterval, jitter, sleeper, random);
    }

    @Override
    public BackOffContext start(RetryContext context) {
        return new Attempts();
    }

    @Override
    public void backOff(BackOffContext backOffContext) throws BackOffInterruptedException {
        Attempts attempts = (Attempts) backOffContext;
        long delay = nextDelayMillis(attempts.count++);
        try {
            sleeper.sleep(delay);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BackOffInterruptedException("backoff interrupted", e);
        }
    }

    /** The wait before retry number {@code attempt} (0-based), with jitter. */
    long nextDelayMillis(int attempt) {
        double base = Math.min(initialInterval.toMillis() * Math.pow(multiplier, attempt), maxInterval.toMillis());
        return (long) (base + random.getAsDouble() * jitter * base);
    }

    /** The first base wait. */
    public Duration initialInterval() {
        return initialInterval;
    }

    /** The growth of the base wait per consecutive failure. */
    public double multiplier() {
        return multiplier;
    }

    /** The cap of the base wait (jitter comes on top). */
    public Duration maxInterval() {
        return maxInterval;
    }

    /** The random extra fraction of the base wait. */
    public double jitter() {
        return jitter;
    }

    @Override
    public String toString() {
        return "JitteredExponential(initial=" + initialInterval + ", multiplier=" + multiplier + ", max="
                + maxInterval + ", jitter=" + jitter + ")";
    }

    private static final class Attempts implements BackOffContext {
        private static final long serialVersionUID = 1L;
        int count;
    }
}
