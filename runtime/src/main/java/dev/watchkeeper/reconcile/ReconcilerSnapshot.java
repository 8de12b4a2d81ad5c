package dev.watchkeeper.reconcile;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * A reconciler's state, immutable and published without locks for the actuator endpoint, health and metrics.
 * Holds no object contents.
 *
 * @param name              the reconciler's name
 * @param primaryWatcher    the name of the watcher of the primary resource (of its group, for a namespace set)
 * @param secondaryWatchers names of the watchers of owned and other watched resources
 * @param ready             every store of the reconciler has completed its first sync, so reconciles run
 * @param queueDepth        keys due now, waiting for a worker
 * @param scheduled         keys waiting for their due time (retries, requeues, debounced changes)
 * @param inFlight          reconciles running now
 * @param concurrency       the most reconciles that may run at once
 * @param lastReconcileAt   when the latest reconcile finished, or {@code null}
 * @param lastResult        {@code done}, {@code requeue}, {@code error} or {@code terminal}, or {@code null}
 * @param failingKeys       keys whose latest reconcile failed, most recent first, capped (see {@code failingKeysTotal})
 * @param failingKeysTotal  how many keys are failing in all
 * @param counts            totals since start
 * @param stuckKeys         keys whose reconcile ignored its interrupt when the reconciler stopped (context close, a
 *                          lost Lease) and still runs, sorted; empty normally
 * @param rateLimit         the overall rate limit on error retries, or {@code null} when there is none
 * @param backOff           the per-object backoff after an error
 * @param shard             the slots a sharded reconciler reconciles now, or {@code null} when it is not sharded
 * @param queueByPriority   {@code queueDepth} split by priority
 * @param readYourWrites    the read-your-own-writes fence, or {@code null} when it is off
 * @param dependents        the dependents its reconciles ran, in the order first run; empty when none ran
 */
public record ReconcilerSnapshot(String name, String primaryWatcher, List<String> secondaryWatchers, boolean ready,
        int queueDepth, int scheduled, int inFlight, int concurrency, Instant lastReconcileAt, String lastResult,
        List<FailingKey> failingKeys, int failingKeysTotal, Counts counts, List<String> stuckKeys,
        RateLimitState rateLimit, BackOff backOff, Shard shard, QueueByPriority queueByPriority,
        ReadYourWrites readYourWrites, List<DependentSnapshot> dependents) {

    public ReconcilerSnapshot {
        secondaryWatchers = List.copyOf(secondaryWatchers);
        failingKeys = List.copyOf(failingKeys);
        stuckKeys = List.copyOf(stuckKeys);
        dependents = List.copyOf(dependents);
    }

    /** A reconciler's state without dependents. */
    public ReconcilerSnapshot(String name, String primaryWatcher, List<String> secondaryWatchers, boolean ready,
            int queueDepth, int scheduled, int inFlight, int concurrency, Instant lastReconcileAt, String lastResult,
            List<FailingKey> failingKeys, int failingKeysTotal, Counts counts, List<String> stuckKeys,
            RateLimitState rateLimit, BackOff backOff, Shard shard, QueueByPriority queueByPriority,
            ReadYourWrites readYourWrites) {
        this(name, primaryWatcher, secondaryWatchers, ready, queueDepth, scheduled, inFlight, concurrency,
                lastReconcileAt, lastResult, failingKeys, failingKeysTotal, counts, stuckKeys, rateLimit, backOff, shard,
                queueByPriority, readYourWrites, List.of());
    }

    /**
     * One dependent the reconciles ran ({@link ReconcileContext#reconcileDependents}): its place in the workflow, its
     * totals since start, and the keys it holds up now.
     *
     * @param name         the dependent's name
     * @param kind         the type of its objects ({@code V1Deployment}), or {@code external } and its state's type
     * @param dependsOn    the dependents it waits for
     * @param pollInterval how often its external resource is polled, or {@code null} when it is not
     * @param applied      objects applied (for an external one: resources created or updated)
     * @param unchanged    objects skipped because they already held the desired state: requests not sent
     * @param deleted      objects deleted as no longer desired
     * @param failures     runs in which applying or deleting failed
     * @param polls        polls of its external resource
     * @param pollFailures polls that failed
     * @param heldKeys     how many keys it holds up now: not ready, blocked by it, or failed
     * @param held         those keys with why, sorted, capped
     */
    public record DependentSnapshot(String name, String kind, List<String> dependsOn, Duration pollInterval,
            long applied, long unchanged, long deleted, long failures, long polls, long pollFailures, int heldKeys,
            List<HeldKey> held) {

        public DependentSnapshot {
            dependsOn = List.copyOf(dependsOn);
            held = List.copyOf(held);
        }
    }

    /**
     * A key a dependent holds up: the first dependent of its primary that is not ready, blocked or failed.
     *
     * @param key    {@code namespace/name}
     * @param phase  {@code not_ready}, {@code blocked} or {@code failed}
     * @param reason why, as the primary's {@code Ready} condition says it
     */
    public record HeldKey(String key, String phase, String reason) {
    }

    /**
     * The keys due now, by priority: live changes, requeues and retries go first ({@code normal}); keys queued by a
     * list, a relist or a resync ({@code low}) wait for them, each until it has waited the reconciler's
     * {@code ReconcilerSettings#maxLowPriorityWait()}, then the two take turns.
     *
     * @param normal keys due now at normal priority
     * @param low    keys due now at low priority
     */
    public record QueueByPriority(int normal, int low) {
    }

    /**
     * A key whose latest reconcile failed.
     *
     * @param key         {@code namespace/name}
     * @param attempts    consecutive failures
     * @param delay       the per-object backoff before the next retry, or {@code null} for a terminal error
     * @param nextRetryAt when it will be retried, or {@code null} for a terminal error (retried on change only)
     * @param lastError   the exception's type and message
     * @param terminal    whether the error was a {@link TerminalReconcileException}
     * @param retryAfter  the wait the API server asked for ({@code Retry-After}) in the failure, or {@code null}:
     *                    nothing reconciles the key, and no request goes to the object it names, before it ends
     */
    public record FailingKey(String key, int attempts, Duration delay, Instant nextRetryAt, String lastError,
            boolean terminal, Duration retryAfter) {

        /** A failure without a {@code Retry-After}. */
        public FailingKey(String key, int attempts, Duration delay, Instant nextRetryAt, String lastError,
                boolean terminal) {
            this(key, attempts, delay, nextRetryAt, lastError, terminal, null);
        }
    }

    /**
     * The overall rate limit on error retries ({@code RateLimit}).
     *
     * @param qps            retries per second once the burst is spent
     * @param burst          retries that may start at once
     * @param delay          how long a retry asked for now would wait for its token (zero while tokens are left): the
     *                       limiter delays work when this is above zero
     * @param limitedRetries retries since start that the limit delayed beyond their per-object backoff
     */
    public record RateLimitState(double qps, int burst, Duration delay, long limitedRetries) {
    }

    /**
     * The per-object backoff after an error ({@code ReconcilerSettings#backOffPolicy()}).
     *
     * @param policy          {@code exponential-jitter} for the built-in policy, else the policy's own description
     * @param initialInterval the first wait, or {@code null} for a policy of one's own
     * @param maxInterval     the cap of the wait (jitter comes on top), or {@code null} likewise
     * @param multiplier      growth per failure, or {@code null} likewise
     * @param jitter          random extra fraction of the wait, or {@code null} likewise
     */
    public record BackOff(String policy, Duration initialInterval, Duration maxInterval, Double multiplier,
            Double jitter) {
    }

    /**
     * A sharded reconciler's share: it reconciles only keys whose object's uid hash lies in its active slots.
     *
     * @param activeSlots the active slots of the 128 the uid-hash space is cut into, runs joined: {@code [0-2,64]},
     *                    {@code []} for none
     * @param draining    whether a reconcile of a slot given up still runs (a narrow waits for it)
     */
    public record Shard(String activeSlots, boolean draining) {
    }

    /**
     * The read-your-own-writes fence: keys wait, holding no worker, until the watchers have delivered the versions
     * this reconciler wrote of their objects and of the children their reconciles wrote.
     *
     * @param timeout  how long a key waits at most before it is reconciled anyway
     * @param waiting  keys waiting now
     * @param waits    reconciles since start that waited
     * @param timeouts waits since start that ended by the timeout, not by the versions arriving
     */
    public record ReadYourWrites(Duration timeout, int waiting, long waits, long timeouts) {
    }

    /**
     * Totals since start.
     *
     * @param reconciles finished reconciles (cleanups included)
     * @param errors     reconciles that threw (a cleanup, or the patch adding or removing the finalizer, included)
     * @param requeues   reconciles that asked for a requeue
     * @param retries    reconciles that were retries after an error
     * @param cleanups   cleanups that succeeded and removed the reconciler's finalizer
     */
    public record Counts(long reconciles, long errors, long requeues, long retries, long cleanups) {
    }
}
