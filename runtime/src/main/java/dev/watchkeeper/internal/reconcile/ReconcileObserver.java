package dev.watchkeeper.internal.reconcile;

import dev.watchkeeper.store.ObjectKey;
import java.util.concurrent.Callable;

/**
 * Wraps each reconcile, on the worker thread that runs it: the seam where the Boot layer opens a Micrometer
 * {@code Observation} or sets an MDC. It must call {@code reconcile} once and pass on its result or exception.
 *
 * <pre>{@code
 * ReconcileObserver observer = new ReconcileObserver() {
 *     public <R> R observe(String reconciler, ObjectKey key, Callable<R> reconcile) throws Exception {
 *         MDC.put("object", key.toString());
 *         try { return reconcile.call(); } finally { MDC.remove("object"); }
 *     }
 * };
 * }</pre>
 */
public interface ReconcileObserver {

    <R> R observe(String reconciler, ObjectKey key, Callable<R> reconcile) throws Exception;

    /** Runs the reconcile as it is. */
    static ReconcileObserver passThrough() {
        return PassThrough.INSTANCE;
    }

    /** The pass-through observer; a named type so it has a readable {@code toString}. */
    enum PassThrough implements ReconcileObserver {
        INSTANCE;

        @Override
        public <R> R observe(String reconciler, ObjectKey key, Callable<R> reconcile) throws Exception {
            return reconcile.call();
        }
    }
}
