package dev.watchkeeper.reconcile;

import java.time.Duration;
import java.util.Objects;

/**
 * What a reconcile asks for next: nothing until the object changes, or another run after a delay.
 *
 * <pre>{@code
 * return ready ? ReconcileResult.done() : ReconcileResult.requeueAfter(Duration.ofSeconds(10));
 * }</pre>
 *
 * @param requeueAfter the delay before the next reconcile of this object, or {@code null} for none
 */
public record ReconcileResult(Duration requeueAfter) {

    private static final ReconcileResult DONE = new ReconcileResult(null);

    public ReconcileResult {
        if (requeueAfter != null && requeueAfter.isNegative()) {
            throw new IllegalArgumentException("requeueAfter must not be negative, was " + requeueAfter);
        }
    }

    /** Done: reconcile again only when the object (or one it owns) changes, or at the periodic resync. */
    public static ReconcileResult done() {
        return DONE;
    }

    /** Reconcile this object again after {@code delay}, even if nothing changes. */
    public static ReconcileResult requeueAfter(Duration delay) {
        return new ReconcileResult(Objects.requireNonNull(delay, "delay"));
    }

    /** Whether the object is reconciled again after {@link #requeueAfter()}. */
    public boolean isRequeue() {
        return requeueAfter != null;
    }
}
