package dev.watchkeeper.internal.reconcile;


/**
 * Told of every finished reconcile, on the worker thread, after the reconciler has recorded it: a hook for metrics
 * beyond the counts the {@link ReconcilerSnapshot} already carries. A listener that throws is logged and ignored.
 *
 * <pre>{@code
 * ReconcileListener listener = outcome -> registry.counter("reconciles", "result", outcome.kind().word()).increment();
 * }</pre>
 */
@FunctionalInterface
public interface ReconcileListener {

    void onReconcile(ReconcileOutcome outcome);
}
