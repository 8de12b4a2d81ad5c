package dev.watchkeeper.internal.reconcile;

import dev.watchkeeper.reconcile.ReconcilerSnapshot;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/** A reconciler's totals since start and its latest outcome, recorded by every worker after every reconcile. */
final class ReconcileStats {

    /** Added to after every reconcile, so striped rather than one contended counter. */
    private final LongAdder reconciles = new LongAdder();
    private final AtomicLong errors = new AtomicLong();
    private final AtomicLong requeues = new AtomicLong();
    private final AtomicLong retries = new AtomicLong();
    private final AtomicLong cleanups = new AtomicLong();
    /**
     * When the latest reconcile finished, in epoch milliseconds ({@link Long#MIN_VALUE} before the first). It and
     * {@link #lastResult} are written only when they change: an unchanged value is not worth a write to a shared
     * cache line.
     */
    private volatile long lastReconcileMillis = Long.MIN_VALUE;
    private volatile ReconcileOutcome.Kind lastResult;

    /** Counts {@code outcome}, which finished at {@code nowMillis}. */
    void record(ReconcileOutcome outcome, long nowMillis) {
        reconciles.increment();
        switch (outcome.kind()) {
            case ERROR, TERMINAL, TIMEOUT -> errors.incrementAndGet();
            case REQUEUE -> requeues.incrementAndGet();
            case DONE -> {
                if (outcome.cleanup()) {
                    cleanups.incrementAndGet();
                }
            }
        }
        if (outcome.attempt() > 1) {
            retries.incrementAndGet();
        }
        if (lastReconcileMillis != nowMillis) {
            lastReconcileMillis = nowMillis;
        }
        if (lastResult != outcome.kind()) {
            lastResult = outcome.kind();
        }
    }

    ReconcilerSnapshot.Counts counts() {
        return new ReconcilerSnapshot.Counts(reconciles.sum(), errors.get(), requeues.get(), retries.get(),
                cleanups.get());
    }

    /** When the latest reconcile finished, or {@code null}. */
    Instant lastReconcileAt() {
        long millis = lastReconcileMillis;
        return millis == Long.MIN_VALUE ? null : Instant.ofEpochMilli(millis);
    }

    /** The latest outcome's word ({@code done}, {@code requeue}, {@code error}, {@code terminal}), or {@code null}. */
    String lastResult() {
        ReconcileOutcome.Kind kind = lastResult;
        return kind == null ? null : kind.word();
    }
}
