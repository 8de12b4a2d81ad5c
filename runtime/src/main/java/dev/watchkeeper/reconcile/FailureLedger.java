package dev.watchkeeper.reconcile;

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
 * A controller's per-key failure state: the latest failure of each key (what snapshots show) and its backoff, kept
 * in one place so that a success, a delete or a manual retry clears both at once (docs/semantics.md §10).
 */
final class FailureLedger {

    /** A key whose latest reconcile failed; {@code resourceVersion} lets a terminal failure wait for a change. */
    private record Failure(int attempts, Duration delay, Instant nextRetryAt, String lastError, boolean terminal,
            String resourceVersion, long order) {
    }

    private final Map<ObjectKey, Failure> failures = new ConcurrentHashMap<>();
    private final ObjectBackOff<ObjectKey> backOff;
    private final AtomicLong order = new AtomicLong();

    FailureLedger(BackOffPolicy policy) {
        this.backOff = new ObjectBackOff<>(policy);
    }

    /** The attempt number of {@code key}'s next reconcile: 1 unless it is retrying a failure. */
    int nextAttempt(ObjectKey key) {
        Failure failure = failures.get(key);
        return failure == null || failure.terminal() ? 1 : failure.attempts() + 1;
    }

    /** Whether {@code key} failed for good at {@code resourceVersion}, so it waits for the object to change. */
    boolean waitsForChange(ObjectKey key, String resourceVersion) {
        Failure failure = failures.get(key);
        return failure != null && failure.terminal() && Objects.equals(failure.resourceVersion(), resourceVersion);
    }

    /**
     * Records a failure to retry and returns how long {@code key} waits before it: its backoff's next delay, or
     * {@code atLeast} (the server's {@code Retry-After}) when that is longer.
     */
    Duration retry(ObjectKey key, int attempt, String resourceVersion, Throwable thrown, Instant now,
            Duration atLeast) {
        Duration delay = backOff.next(key);
        if (atLeast != null && atLeast.compareTo(delay) > 0) {
            delay = atLeast;
        }
        failures.put(key, new Failure(attempt, delay, now.plus(delay), describe(thrown), false, resourceVersion,
                order.incrementAndGet()));
        return delay;
    }

    /** Records a failure that is not retried until the object changes. */
    void terminal(ObjectKey key, int attempt, String resourceVersion, TerminalReconcileException thrown) {
        backOff.forget(key);
        failures.put(key, new Failure(attempt, null, null, describe(thrown), true, resourceVersion,
                order.incrementAndGet()));
    }

    /** Forgets {@code key}'s failure and backoff (after a success or a delete). */
    void forget(ObjectKey key) {
        failures.remove(key);
        backOff.forget(key);
    }

    /** Forgets every failing key and returns them (for a manual retry). */
    List<ObjectKey> forgetAll() {
        List<ObjectKey> keys = List.copyOf(failures.keySet());
        keys.forEach(this::forget);
        return keys;
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
                    failure.delay(), failure.nextRetryAt(), failure.lastError(), failure.terminal()));
        }
        return shown;
    }

    private static String describe(Throwable thrown) {
        return thrown.getMessage() == null ? thrown.getClass().getName()
                : thrown.getClass().getName() + ": " + thrown.getMessage();
    }
}
