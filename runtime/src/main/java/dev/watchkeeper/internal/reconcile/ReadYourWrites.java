package dev.watchkeeper.internal.reconcile;

import dev.watchkeeper.reconcile.ReconcilerSnapshot;
import dev.watchkeeper.store.ObjectKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The read-your-own-writes fence (docs/semantics.md §10): a key is not reconciled while its watchers have not
 * delivered a version this reconciler wrote of its object or of a child its reconcile wrote ({@link OwnWrites}), so
 * no reconcile is handed a cache older than its own last write. A waiting key holds no worker: it is queued again,
 * due when the timeout ends, and woken as soon as the last version arrives. Once the timeout ends it runs anyway,
 * the wait is counted as timed out, and the versions it waited for are forgotten.
 */
final class ReadYourWrites {

    private static final Logger log = LoggerFactory.getLogger(Reconciler.class);

    private final String name;
    private final OwnWrites writes;
    private final ReconcileQueue queue;
    private final Clock clock;
    /** {@link Duration#ZERO}: the fence is off. */
    private final Duration timeout;
    /** Keys waiting now, since when; only the worker holding a key changes its entry. */
    private final Map<ObjectKey, Instant> waitingSince = new ConcurrentHashMap<>();
    private final AtomicLong waits = new AtomicLong();
    private final AtomicLong timeouts = new AtomicLong();

    ReadYourWrites(String name, OwnWrites writes, ReconcileQueue queue, Clock clock, Duration timeout) {
        this.name = name;
        this.writes = writes;
        this.queue = queue;
        this.clock = clock;
        this.timeout = timeout;
    }

    /**
     * Whether {@code key} may be reconciled now: its writes were all delivered, its wait timed out, or the fence is
     * off. When it may not, it is queued again and waits.
     */
    boolean admit(ObjectKey key) {
        if (timeout.isZero()) {
            return true;
        }
        Instant now = clock.instant();
        Instant since = waitingSince.get(key);
        if (since != null && !now.isBefore(since.plus(timeout))) {
            writes.giveUp(key);
            waitingSince.remove(key);
            timeouts.incrementAndGet();
            log.debug("reconciler {}: {} waited {} for its own writes to be delivered; reconciling anyway", name,
                    key, timeout);
            return true;
        }
        if (!writes.awaitSeen(key, () -> queue.add(key))) {
            waitingSince.remove(key);
            return true;
        }
        if (since == null) {
            since = now;
            waitingSince.put(key, now);
            waits.incrementAndGet();
        }
        queue.addAfter(key, Duration.between(now, since.plus(timeout)));
        return false;
    }

    /** {@code key}'s object is gone: it waits for nothing. */
    void forget(ObjectKey key) {
        if (waitingSince.remove(key) != null) {
            writes.giveUp(key);
        }
    }

    /** The fence's state, or {@code null} when it is off. */
    ReconcilerSnapshot.ReadYourWrites snapshot() {
        return timeout.isZero() ? null
                : new ReconcilerSnapshot.ReadYourWrites(timeout, waitingSince.size(), waits.get(), timeouts.get());
    }
}
