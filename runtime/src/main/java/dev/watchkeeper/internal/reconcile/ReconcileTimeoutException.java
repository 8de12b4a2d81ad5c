package dev.watchkeeper.internal.reconcile;

import java.time.Duration;

/**
 * What a reconcile (or cleanup) counts as when it ran past its reconciler's {@link ReconcilerSettings#timeout()
 * timeout}: its worker was interrupted, and whatever the reconcile then threw is kept as a suppressed exception. The
 * key's failure says {@code timed out after 30s}; it is retried with the backoff like any error.
 *
 * <pre>{@code
 * listener(outcome -> {
 *     if (outcome.error() instanceof ReconcileTimeoutException timedOut) {
 *         slowReconciles.increment();
 *     }
 * });
 * }</pre>
 */
public final class ReconcileTimeoutException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final Duration timeout;

    /** {@code thrown}: what the interrupted reconcile threw, or {@code null}. */
    public ReconcileTimeoutException(Duration timeout, Throwable thrown) {
        // not the cause: the failure's description would name an interrupted API call in the chain, not the timeout
        super("timed out after " + format(timeout));
        this.timeout = timeout;
        if (thrown != null) {
            addSuppressed(thrown);
        }
    }

    /** The timeout the reconcile ran past. */
    public Duration timeout() {
        return timeout;
    }

    /** As properties write it: {@code 30s}, {@code 1500ms}. */
    private static String format(Duration timeout) {
        long millis = timeout.toMillis();
        return millis % 1000 == 0 ? millis / 1000 + "s" : millis + "ms";
    }
}
