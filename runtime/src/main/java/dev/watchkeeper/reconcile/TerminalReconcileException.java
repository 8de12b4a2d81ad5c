package dev.watchkeeper.reconcile;

/**
 * Thrown by a reconciler when retrying cannot help (an invalid spec, say): the error is recorded in the
 * reconciler's state, and the object is not retried until its resourceVersion changes.
 *
 * <pre>{@code
 * if (spec.getReplicas() < 0) {
 *     throw new TerminalReconcileException("spec.replicas must not be negative");
 * }
 * }</pre>
 */
public class TerminalReconcileException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** A failure not retried until the object changes, saying why. */
    public TerminalReconcileException(String message) {
        super(message);
    }

    /** A failure not retried until the object changes, saying why, with its cause. */
    public TerminalReconcileException(String message, Throwable cause) {
        super(message, cause);
    }
}
