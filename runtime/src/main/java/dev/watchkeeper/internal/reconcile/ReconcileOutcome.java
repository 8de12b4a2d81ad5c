package dev.watchkeeper.internal.reconcile;

import dev.watchkeeper.store.ObjectKey;
import java.time.Duration;

/**
 * What one reconcile ended in, as told to a {@link ReconcileListener}.
 *
 * <pre>{@code
 * controllerBuilder.listener(outcome -> timer(outcome.reconciler(), outcome.kind()).record(outcome.took()));
 * }</pre>
 *
 * @param reconciler the reconciler's name
 * @param key        the object's key
 * @param attempt    1 for a first try, more for retries after errors
 * @param kind       how it ended
 * @param next       when the key runs again: the requested requeue delay or the backoff delay; {@code null} when
 *                   it waits for a change
 * @param took       how long the reconcile ran
 * @param error      the exception for {@link Kind#ERROR}, {@link Kind#TERMINAL} and {@link Kind#TIMEOUT} (a
 *                   {@link ReconcileTimeoutException}), else {@code null}
 * @param cleanup    whether it was the cleanup of an object being deleted (see {@link Finalizer}), not a reconcile;
 *                   {@link Kind#DONE} then means the finalizer was removed
 */
public record ReconcileOutcome(String reconciler, ObjectKey key, int attempt, Kind kind, Duration next, Duration took,
        Throwable error, boolean cleanup) {

    /**
     * How a reconcile ended: {@code TIMEOUT} is a failure like {@code ERROR}, retried with the backoff, of a reconcile
     * that ran past its {@link ReconcilerSettings#timeout() timeout} and was interrupted.
     */
    public enum Kind {
        DONE, REQUEUE, ERROR, TERMINAL, TIMEOUT;

        /** The word used in {@link ReconcilerSnapshot#lastResult()}. */
        public String word() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }
}
