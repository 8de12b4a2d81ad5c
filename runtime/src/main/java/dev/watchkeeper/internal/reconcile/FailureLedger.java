package dev.watchkeeper.internal.reconcile;

import dev.watchkeeper.internal.api.ApiErrors;
import dev.watchkeeper.reconcile.ReconcilerSnapshot;
import dev.watchkeeper.reconcile.TerminalReconcileException;
import dev.watchkeeper.store.ObjectKey;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.retry.backoff.BackOffPolicy;

/**
 * A reconciler's per-key failure state: the latest failure of each key (what snapshots show) and its backoff, kept
 * in one place so that a success, a delete or a manual retry clears both at once (docs/semantics.md §10). With a
 * {@link RateLimit}, every retry also takes a token of the reconciler's one bucket and waits for the later of both.
 */
final class FailureLedger {

    /** A key whose latest reconcile failed; {@code resourceVersion} lets a terminal failure wait for a change. */
    record Failure(int attempts, Duration delay, Instant nextRetryAt, String lastError, boolean terminal,
            String resourceVersion, Duration retryAfter, long order) {

        /** The attempt number of the key's next reconcile: 1 after a terminal failure, else one more. */
        int nextAttempt() {
            return terminal ? 1 : attempts + 1;
        }

        /** Whether the key failed for good at {@code version}, so it waits for the object to change. */
        boolean waitsForChange(String version) {
            return terminal && Objects.equals(resourceVersion, version);
        }
    }

    private final Map<ObjectKey, Failure> failures = new ConcurrentHashMap<>();
    private final ObjectBackOff<ObjectKey> backOff;
    private final AtomicLong order = new AtomicLong();
    /** {@code null} without a rate limit. */
    private final TokenBucket bucket;
    private final AtomicLong limitedRetries = new AtomicLong();

    /** {@code rateLimit}: {@code null} for none. */
    FailureLedger(BackOffPolicy policy, RateLimit rateLimit) {
        this.backOff = new ObjectBackOff<>(policy);
        this.bucket = rateLimit == null ? null : new TokenBucket(rateLimit);
    }

    /**
     * {@code key}'s latest failure, or {@code null} when it has none (the common case): a reconcile reads it once
     * and, only when there was one, {@link #forget forgets} it after a success. Only the reconcile of a key records
     * a failure for it, so none can appear while that reconcile runs.
     */
    Failure failure(ObjectKey key) {
        return failures.get(key);
    }

    /** The attempt number of {@code key}'s next reconcile: 1 unless it is retrying a failure. */
    int nextAttempt(ObjectKey key) {
        Failure failure = failures.get(key);
        return failure == null ? 1 : failure.nextAttempt();
    }

    /** Whether {@code key} failed for good at {@code resourceVersion}, so it waits for the object to change. */
    boolean waitsForChange(ObjectKey key, String resourceVersion) {
        Failure failure = failures.get(key);
        return failure != null && failure.waitsForChange(resourceVersion);
    }

    /**
     * Records a failure to retry and returns how long {@code key} waits before it: the longest of its backoff's next
     * delay, the wait for its token of the rate limit, and {@code atLeast} (the server's {@code Retry-After}).
     */
    Duration retry(ObjectKey key, int attempt, String resourceVersion, Throwable thrown, Instant now,
            Duration atLeast) {
        Duration delay = backOff.next(key);
        if (bucket != null) {
            Duration token = bucket.reserve(now);
            if (token.compareTo(delay) > 0) {
                delay = token;
                limitedRetries.incrementAndGet();
            }
        }
        if (atLeast != null && atLeast.compareTo(delay) > 0) {
            delay = atLeast;
        }
        failures.put(key, new Failure(attempt, delay, now.plus(delay), ApiErrors.describe(thrown), false, resourceVersion,
                atLeast, order.incrementAndGet()));
        return delay;
    }

    /** Records a failure that is not retried until the object changes. */
    void terminal(ObjectKey key, int attempt, String resourceVersion, TerminalReconcileException thrown) {
        backOff.forget(key);
        failures.put(key, new Failure(attempt, null, null, ApiErrors.describe(thrown), true, resourceVersion, null,
                order.incrementAndGet()));
    }

    /**
     * Forgets {@code key}'s failure and backoff (after a success or a delete). A key has a backoff only while it has
     * a failure ({@link #retry} records both).
     */
    void forget(ObjectKey key) {
        if (failures.remove(key) != null) {
            backOff.forget(key);
        }
    }

    /** Forgets every failing key and returns them (for a manual retry). */
    List<ObjectKey> forgetAll() {
        List<ObjectKey> keys = List.copyOf(failures.keySet());
        keys.forEach(this::forget);
        return keys;
    }

    /** The rate limit's state at {@code now}, or {@code null} without one. */
    ReconcilerSnapshot.RateLimitState rateLimit(Instant now) {
        return bucket == null ? null : new ReconcilerSnapshot.RateLimitState(bucket.limit().qps(),
                bucket.limit().burst(), bucket.delay(now), limitedRetries.get());
    }

    /** How many keys are failing, without walking them. */
    int size() {
        return failures.size();
    }

    /** The {@code limit} most recent failures, newest first; O(n log limit), for snapshots taken on request. */
    List<ReconcilerSnapshot.FailingKey> mostRecent(int limit) {
        PriorityQueue<Map.Entry<ObjectKey, Failure>> recent = new PriorityQueue<>(
                Comparator.comparingLong(e -> e.getValue().order()));
        for (Map.Entry<ObjectKey, Failure> entry : failures.entrySet()) {
            recent.add(entry);
            if (recent.size() > limit) {
                recent.poll();
            }
        }
        List<ReconcilerSnapshot.FailingKey> shown = new ArrayList<>(recent.size());
        while (!recent.isEmpty()) {
            Map.Entry<ObjectKey, Failure> entry = recent.poll();
            Failure failure = entry.getValue();
            shown.add(0, new ReconcilerSnapshot.FailingKey(entry.getKey().toString(), failure.attempts(),
                    failure.delay(), failure.nextRetryAt(), failure.lastError(), failure.terminal(),
                    failure.retryAfter()));
        }
        return shown;
    }

}
