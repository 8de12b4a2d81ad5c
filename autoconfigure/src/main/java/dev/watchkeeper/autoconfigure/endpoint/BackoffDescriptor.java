package dev.watchkeeper.autoconfigure.endpoint;

import dev.watchkeeper.backoff.BackOffSettings;
import java.time.Duration;

/**
 * A watcher's backoff policy parameters; for a user's own policy only its description.
 *
 * @param policy          {@code client-go} for the built-in exponential policy with reset timer, else the
 *                        user policy's description
 * @param initialInterval the first wait, or {@code null} for a user policy
 * @param maxInterval     the cap of the wait
 * @param multiplier      growth per failure
 * @param jitter          random extra fraction
 * @param resetAfter      reset timer
 * @param maxElapsedTime  give-up time, or {@code null} for never
 */
public record BackoffDescriptor(String policy, Duration initialInterval, Duration maxInterval, Double multiplier,
        Double jitter, Duration resetAfter, Duration maxElapsedTime) {

    static BackoffDescriptor of(BackOffSettings settings) {
        return new BackoffDescriptor("exponential-jitter-reset", settings.initialInterval(), settings.maxInterval(),
                settings.multiplier(), settings.jitter(), settings.resetAfter(), settings.maxElapsedTime());
    }

    static BackoffDescriptor custom(String description) {
        return new BackoffDescriptor(description, null, null, null, null, null, null);
    }
}
