package dev.watchkeeper.autoconfigure.endpoint;

import dev.watchkeeper.reconcile.ReconcilerSnapshot;
import java.time.Instant;
import java.util.List;

/**
 * One reconciler in {@code /actuator/watchkeeper}.
 *
 * @param name              the reconciler's name
 * @param primaryWatcher    the watcher of its primary resource (the group of one per namespace, for a set)
 * @param secondaryWatchers watchers of owned and other watched resources
 * @param ready             every store synced, so reconciles run
 * @param queueDepth        keys due now, waiting for a worker
 * @param scheduled         keys waiting for their due time (retries, requeues, debounced changes)
 * @param inFlight          reconciles running
 * @param concurrency       most reconciles at once
 * @param lastReconcileAt   when the latest reconcile finished
 * @param lastResult        {@code done}, {@code requeue}, {@code error} or {@code terminal}
 * @param failingKeys       failing keys (capped) with attempts, next retry and last error
 * @param failingKeysTotal  failing keys in all
 * @param counts            totals since start
 * @param stuckKeys         keys whose reconcile ignored its interrupt at stop and still runs
 * @param rateLimit         the overall retry rate limit ({@code qps}, {@code burst}, {@code delay} a retry would
 *                          wait now, {@code limitedRetries}), or {@code null} when off
 * @param backoff           the per-object backoff after an error ({@code policy}, and for the built-in one its
 *                          {@code initialInterval}, {@code maxInterval}, {@code multiplier}, {@code jitter})
 * @param queueByPriority   {@code queueDepth} split into {@code normal} (live changes, requeues, retries) and
 *                          {@code low} (keys of a list, relist or resync)
 * @param readYourWrites    the read-your-own-writes fence ({@code timeout}, keys {@code waiting} now, {@code waits}
 *                          and {@code timeouts} since start), or {@code null} when off
 * @param dependents        the dependents its reconciles ran, in order: each one's {@code kind}, {@code dependsOn},
 *                          {@code pollInterval}, totals ({@code applied}, {@code unchanged}: requests not sent,
 *                          {@code deleted}, {@code failures}, {@code polls}, {@code pollFailures}) and the keys it
 *                          holds up now ({@code heldKeys}, {@code held}: key, phase and reason)
 */
public record ReconcilerDescriptor(String name, String primaryWatcher, List<String> secondaryWatchers, boolean ready,
        int queueDepth, int scheduled, int inFlight, int concurrency, Instant lastReconcileAt, String lastResult,
        List<ReconcilerSnapshot.FailingKey> failingKeys, int failingKeysTotal, ReconcilerSnapshot.Counts counts,
        List<String> stuckKeys, ReconcilerSnapshot.RateLimitState rateLimit, ReconcilerSnapshot.BackOff backoff,
        ReconcilerSnapshot.QueueByPriority queueByPriority, ReconcilerSnapshot.ReadYourWrites readYourWrites,
        List<ReconcilerSnapshot.DependentSnapshot> dependents) {

    static ReconcilerDescriptor of(ReconcilerSnapshot s) {
        return new ReconcilerDescriptor(s.name(), s.primaryWatcher(), s.secondaryWatchers(), s.ready(),
                s.queueDepth(), s.scheduled(), s.inFlight(), s.concurrency(), s.lastReconcileAt(), s.lastResult(), s.failingKeys(),
                s.failingKeysTotal(), s.counts(), s.stuckKeys(), s.rateLimit(), s.backOff(),
                s.queueByPriority(), s.readYourWrites(), s.dependents());
    }
}
