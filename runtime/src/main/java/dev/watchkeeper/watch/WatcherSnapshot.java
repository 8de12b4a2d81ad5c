package dev.watchkeeper.watch;

import dev.watchkeeper.backoff.BackOffSettings;
import java.time.Duration;
import java.time.Instant;

/**
 * A watcher's state after its latest transition: immutable, published without locks, read by the actuator
 * endpoint, health and metrics. Holds no object contents and no credentials.
 *
 * @param name                the watcher's name
 * @param resource            e.g. {@code v1/configmaps} (the plural guessed from the kind until discovery answers)
 * @param namespace           the namespace, or {@code null} for all namespaces
 * @param labelSelector       or {@code null}
 * @param fieldSelector       or {@code null}
 * @param phase               what it is doing
 * @param synced              the initial list is done and no relist is pending
 * @param objects             objects in its store
 * @param resourceVersion     where a rewatch resumes: the list's version, then each event's or bookmark's
 * @param consecutiveFailures failures since the last progress
 * @param currentDelay        the current backoff wait, or {@code null} when not backing off or unknown
 * @param nextAttemptAt       when the next attempt is due while backing off, or {@code null}
 * @param lastError           the latest error, or {@code null}
 * @param counts              totals since start
 * @param backOff             a description of the backoff policy in use
 * @param backOffSettings     the numbers of the built-in backoff policy in use, or {@code null} when the watcher
 *                            runs a policy of its own ({@code Watcher.Builder#backOffPolicy})
 */
public record WatcherSnapshot(String name, String resource, String namespace, String labelSelector,
        String fieldSelector, WatcherPhase phase, boolean synced, int objects, String resourceVersion,
        int consecutiveFailures, Duration currentDelay, Instant nextAttemptAt, WatchError lastError, Counts counts,
        String backOff, BackOffSettings backOffSettings) {

    /**
     * Totals since start.
     *
     * @param events  objects received (initial and changes)
     * @param relists lists started after the first complete sync
     * @param errors  error events
     */
    public record Counts(long events, long relists, long errors) {
    }
}
