package dev.watchkeeper.autoconfigure;

import dev.watchkeeper.autoconfigure.WatcherProperties.BackoffOverrides;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Overrides for one reconciler; unset values inherit the global ones.
 *
 * @param concurrency  Reconciles that may run at once (overrides the annotation's {@code concurrency})
 * @param backoff      Per-object backoff overrides
 * @param resyncPeriod Periodic resync for this reconciler; 0 = off
 * @param debounce     Debounce of this reconciler (overrides the annotation's {@code debounce}); 0 = off
 * @param shutdownDrain Whether this reconciler drains its queue on shutdown
 * @param namespaces   The namespaces to reconcile in, replacing the annotation's {@code namespace} and
 *                     {@code namespaces}: one watcher per namespace for the primary and for each secondary
 *                     (named {@code <plural>@<namespace>}), each with its own backoff and state
 * @param rateLimit    Rate limit overrides
 * @param sharding     Whether this reconciler is sharded, overriding {@code watchkeeper.sharding.enabled}
 * @param statusConditions Whether this reconciler writes status conditions, overriding
 *                     {@code watchkeeper.reconcile.status-conditions.enabled}
 * @param maxLowPriorityWait How long this reconciler's listed and resynced objects wait behind live changes
 *                     before the two take turns; 0 = no priorities
 * @param readYourWrites The read-your-own-writes wait of this reconciler, overriding
 *                     {@code watchkeeper.reconcile.read-your-writes}
 * @param timeout      Reconcile timeout of this reconciler (overrides the annotation's {@code timeout}); 0 = none
 * @param writeBudget  Write budget overrides
 */
public record ReconcilerProperties(Integer concurrency, BackoffOverrides backoff, Duration resyncPeriod,
        Duration debounce, Boolean shutdownDrain, Set<String> namespaces, RateLimitOverrides rateLimit,
        ReconcilerSharding sharding, StatusConditionsOverride statusConditions, Duration maxLowPriorityWait,
        ReadYourWritesOverride readYourWrites, Duration timeout, WriteBudgetOverrides writeBudget) {

    /** No overrides. */
    static final ReconcilerProperties NONE = new ReconcilerProperties(null, null, null, null, null, null, null,
            null, null, null, null, null, null);

    public ReconcilerProperties {
        namespaces = namespaces == null ? Set.of() : Collections.unmodifiableSet(new LinkedHashSet<>(namespaces));
    }

    /**
     * Sharding of one reconciler.
     *
     * @param enabled Whether this reconciler reconciles only this replica's share of its objects (the member Leases'
     *                settings are {@code watchkeeper.sharding.*}'s); unset = {@code watchkeeper.sharding.enabled}
     */
    public record ReconcilerSharding(Boolean enabled) {
    }

    /**
     * The read-your-own-writes wait of one reconciler.
     *
     * @param timeout How long a key waits at most for its own writes; 0 = the fence is off; unset =
     *                {@code watchkeeper.reconcile.read-your-writes.timeout}
     */
    public record ReadYourWritesOverride(Duration timeout) {
    }

    /**
     * The status conditions of one reconciler.
     *
     * @param enabled Whether this reconciler writes {@code Ready}, {@code Reconciling} and {@code Stalled} after each
     *                reconcile; unset = {@code watchkeeper.reconcile.status-conditions.enabled}
     */
    public record StatusConditionsOverride(Boolean enabled) {
    }

    /**
     * Rate limit values to override; unset ones inherit.
     *
     * @param enabled Whether this reconciler's retries wait for tokens
     * @param qps     Tokens added per second
     * @param burst   Tokens the bucket holds
     */
    public record RateLimitOverrides(Boolean enabled, Double qps, Integer burst) {

        /** No overrides. */
        static final RateLimitOverrides NONE = new RateLimitOverrides(null, null, null);
    }

    /**
     * Write budget values to override; unset ones inherit.
     *
     * @param enabled Whether this reconciler's writes wait for tokens
     * @param qps     Tokens added per second
     * @param burst   Tokens the bucket holds
     */
    public record WriteBudgetOverrides(Boolean enabled, Double qps, Integer burst) {

        /** No overrides. */
        static final WriteBudgetOverrides NONE = new WriteBudgetOverrides(null, null, null);
    }
}
