package dev.watchkeeper.internal.watch;

/**
 * Which throwables from user code (a listener, a reconciler) Watchkeeper must not survive. A fatal one is recorded
 * where it happened (the component reports {@code STOPPED} or stops working, naming it), logged, and thrown on, so
 * the thread ends and the JVM's own policy ({@code -XX:+ExitOnOutOfMemoryError}, an uncaught-exception handler)
 * decides; everything else is that user code failing once, and the component goes on.
 *
 * <p>Fatal: a {@link VirtualMachineError} — {@link OutOfMemoryError}, {@link InternalError}, {@link UnknownError} —
 * after which the JVM cannot be trusted. Not fatal: a {@link StackOverflowError}, which has unwound the user's
 * stack by the time it reaches us, an {@link AssertionError}, a {@link LinkageError} and every exception.
 *
 * <pre>{@code
 * } catch (Throwable thrown) {
 *     if (FatalErrors.isFatal(thrown)) {
 *         stopAndReport(thrown);
 *         throw thrown;
 *     }
 *     log.error("listener failed", thrown);
 * }
 * }</pre>
 */
public final class FatalErrors {

    private FatalErrors() {
    }

    /** Whether {@code thrown} must end the component that caught it and be thrown on. */
    public static boolean isFatal(Throwable thrown) {
        return thrown instanceof VirtualMachineError && !(thrown instanceof StackOverflowError);
    }
}
