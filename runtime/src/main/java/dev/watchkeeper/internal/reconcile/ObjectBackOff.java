package dev.watchkeeper.internal.reconcile;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.retry.backoff.BackOffContext;
import org.springframework.retry.backoff.BackOffPolicy;
import org.springframework.retry.backoff.Sleeper;
import org.springframework.retry.backoff.SleepingBackOffPolicy;

/**
 * Per-object error backoff: one Spring Retry {@link BackOffContext} per failing key, so one broken object backs off
 * without slowing the others (kube-rs lacks this, #1916). Delays are <em>scheduled</em>, never slept: the policy
 * is given a sleeper that records the delay and returns at once, and the reconciler's queue re-adds the key with it.
 *
 * <pre>{@code
 * ObjectBackOff<ObjectKey> backOff = new ObjectBackOff<>(ReconcilerSettings.defaultBackOffPolicy());
 * queue.add(key, backOff.next(key));   // 5 ms, 10 ms, 20 ms, … 1000 s
 * backOff.forget(key);                 // on success
 * }</pre>
 *
 * @param <K> the key type
 */
public final class ObjectBackOff<K> {

    private final CapturingSleeper sleeper = new CapturingSleeper();
    private final BackOffPolicy policy;
    /** Read and removed without the lock (a success forgets a key that mostly has none); {@link #next} holds it. */
    private final Map<K, BackOffContext> contexts = new ConcurrentHashMap<>();

    /**
     * @param policy a {@link SleepingBackOffPolicy}, as {@link ReconcilerSettings} requires: only through its sleeper
     *               can a delay be learned without blocking
     */
    public ObjectBackOff(BackOffPolicy policy) {
        this.policy = ((SleepingBackOffPolicy<?>) Objects.requireNonNull(policy, "policy")).withSleeper(sleeper);
    }

    /** The next delay for {@code key}, growing with each call until {@link #forget}. */
    public synchronized Duration next(K key) {
        BackOffContext context = contexts.computeIfAbsent(key, k -> policy.start(null));
        sleeper.captured = -1;
        policy.backOff(context);
        if (sleeper.captured < 0) {
            throw new IllegalStateException("backoff policy " + policy + " did not hand its delay to its sleeper");
        }
        return Duration.ofMillis(sleeper.captured);
    }

    /** Starts {@code key}'s backoff over (after a success, a delete or a manual retry). */
    public void forget(K key) {
        contexts.remove(key);
    }

    /** How many keys have a backoff in progress. */
    public int size() {
        return contexts.size();
    }

    /** Records the delay and returns at once; only used under the {@link ObjectBackOff}'s lock. */
    private static final class CapturingSleeper implements Sleeper {
        private static final long serialVersionUID = 1L;
        long captured = -1;

        @Override
        public void sleep(long backOffPeriod) {
            captured = Math.max(0, backOffPeriod);
        }
    }
}
