package dev.watchkeeper.autoconfigure.endpoint;

import dev.watchkeeper.watch.WatcherSnapshot;
import java.time.Duration;

/**
 * The parameters of the backoff policy a watcher uses, read from its snapshot; for a user's own policy only its
 * description.
 *
 * @param policy          {@code exponential-jitter-reset} for the built-in exponential policy with jitter and reset
 *                        timer, else the user policy's description
 * @param initialInterval the first wait, or {@code null} for a user policy
 * @param maxInterval     the cap of the wait
 * @param multiplier      growth per failure
 * @param jitter          random extra fraction
 * @param resetAfter      reset timer
 * @param maxElapsedTime  give-up time, or {@code null} for never
 */
public record BackoffDescriptor(String policy, Duration initialInterval, Duration maxInterval, Double multiplier,
        Double jitter, Duration resetAfter, Duration maxElapsedTime) {

    static BackoffDescriptor of(WatcherSnapshot snapshot) {
        WatcherSnapshot.BackOff settings = snapshot.backOffSettings();
        if (settings == null) {
            return new BackoffDescriptor(snapshot.backOff(), null, null, null, null, null, null);
        }
        return new BackoffDescriptor("exponential-jitter-reset", settings.initialInterval(), settings.maxInterval(),
                settings.multiplier(), settings.jitter(), settings.resetAfter(), settings.maxElapsedTime());
    }
}
