package dev.watchkeeper.autoconfigure.endpoint;

import dev.watchkeeper.internal.store.IndexStats;
import dev.watchkeeper.internal.watch.Watcher;
import dev.watchkeeper.watch.WatchError;
import dev.watchkeeper.watch.WatcherSnapshot;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * One watcher in {@code /actuator/watchkeeper}.
 *
 * @param name                the watcher's name
 * @param resource            e.g. {@code v1/configmaps}
 * @param namespace           the namespace, or {@code null} for all
 * @param labelSelector       label selector or {@code null}
 * @param fieldSelector       field selector or {@code null}
 * @param phase               {@code STARTING}, {@code LISTING}, {@code WATCHING}, {@code BACKING_OFF} or {@code STOPPED}
 * @param synced              initial list complete and no relist pending
 * @param objects             objects cached
 * @param resourceVersion     last resourceVersion seen
 * @param consecutiveFailures failures since the last progress
 * @param currentDelay        the current backoff wait while backing off
 * @param nextAttemptAt       when the next attempt is due while backing off
 * @param lastError           the latest error
 * @param backoff             the parameters of the backoff policy the watcher uses
 * @param counts              totals since start
 * @param indexes             the store's indexes: the built-in {@code namespace}, {@code owner} and {@code label}, and
 *                            custom ones, each with its size and estimated heap
 */
public record WatcherDescriptor(String name, String resource, String namespace, String labelSelector,
        String fieldSelector, String phase, boolean synced, int objects, String resourceVersion,
        int consecutiveFailures, Duration currentDelay, Instant nextAttemptAt, ErrorDescriptor lastError,
        BackoffDescriptor backoff, WatcherSnapshot.Counts counts, List<IndexDescriptor> indexes) {

    static WatcherDescriptor of(Watcher<?> watcher) {
        WatcherSnapshot s = watcher.snapshot();
        return new WatcherDescriptor(s.name(), s.resource(), s.namespace(), s.labelSelector(), s.fieldSelector(),
                s.phase().name(), s.synced(), s.objects(), s.resourceVersion(), s.consecutiveFailures(),
                s.currentDelay(), s.nextAttemptAt(), ErrorDescriptor.of(s.lastError()), BackoffDescriptor.of(s),
                s.counts(), watcher.indexStats().stream().map(IndexDescriptor::of).toList());
    }

    /**
     * One index of a watcher's store.
     *
     * @param name           {@code namespace}, {@code owner}, {@code label} or a custom index's name
     * @param keys           distinct index keys
     * @param entries        (index key, object) pairs
     * @param estimatedBytes the heap it holds beyond strings the objects share (64-bit JVM, compressed references)
     */
    public record IndexDescriptor(String name, int keys, long entries, long estimatedBytes) {

        static IndexDescriptor of(IndexStats stats) {
            return new IndexDescriptor(stats.name(), stats.keys(), stats.entries(), stats.estimatedBytes());
        }
    }

    /**
     * The latest error of a watcher.
     *
     * @param kind    e.g. {@code InitialListFailed}
     * @param code    the HTTP status of the answer, or {@code null} when none came (connection refused, a timeout)
     * @param message what happened and what to do
     * @param at      when
     */
    public record ErrorDescriptor(String kind, Integer code, String message, Instant at) {

        static ErrorDescriptor of(WatchError error) {
            return error == null ? null
                    : new ErrorDescriptor(error.kind().label(), error.code() == 0 ? null : error.code(),
                            error.message(), error.at());
        }
    }
}
