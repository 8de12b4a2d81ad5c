package dev.watchkeeper.internal.reconcile;

import dev.watchkeeper.internal.backoff.TimeSource;
import io.kubernetes.client.openapi.ApiException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.time.Instant;

/**
 * A reconciler's budget on the writes its reconciles make through their context ({@code ReconcilerSettings}'
 * {@code writeBudget}; docs/semantics.md, "Write budget"): each write takes a token of a {@link TokenBucket} and
 * waits for it inside the reconcile, so a reconciler cannot write faster than its {@code qps} once the burst is
 * spent. The budget is the reconciler's own: no other client traffic (watches, Lease renewals, Events) takes from
 * it. An interrupted wait keeps its reservation, erring on the side of fewer writes.
 */
final class WriteBudget {

    private static final WriteBudget NONE = new WriteBudget(null, null, null);

    private final String reconciler;
    private final TokenBucket bucket;
    private final TimeSource time;

    private WriteBudget(String reconciler, TokenBucket bucket, TimeSource time) {
        this.reconciler = reconciler;
        this.bucket = bucket;
        this.time = time;
    }

    /** No budget: writes go out at once. */
    static WriteBudget none() {
        return NONE;
    }

    /** {@code limit}'s budget for the reconciler {@code reconciler}; none when {@code limit} is {@code null}. */
    static WriteBudget of(String reconciler, RateLimit limit, TimeSource time) {
        return limit == null ? NONE : new WriteBudget(reconciler, new TokenBucket(limit), time);
    }

    /**
     * Waits for the next write's token. An interrupt (a timeout, a lost Lease, a shutdown) ends the wait as
     * client-java ends an interrupted call: an {@code ApiException} caused by an {@link InterruptedIOException},
     * with the thread's interrupt flag kept.
     */
    void acquire() throws ApiException {
        if (bucket == null) {
            return;
        }
        Instant now = time.clock().instant();
        Duration wait = bucket.reserve(now);
        if (wait.isZero()) {
            return;
        }
        Instant until = now.plus(wait);
        Object monitor = new Object();
        try {
            synchronized (monitor) {
                // the time source may return early (a virtual one does): wait until the clock says so
                for (Instant at = now; at.isBefore(until); at = time.clock().instant()) {
                    if (Thread.currentThread().isInterrupted()) {
                        throw new InterruptedException();
                    }
                    time.await(monitor, Duration.between(at, until), () -> false);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            InterruptedIOException interrupted = new InterruptedIOException(
                    "interrupted while waiting for a token of reconciler " + reconciler + "'s write budget");
            interrupted.initCause(e);
            throw new ApiException(interrupted);
        }
    }
}
