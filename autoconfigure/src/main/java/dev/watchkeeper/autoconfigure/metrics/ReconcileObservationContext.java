package dev.watchkeeper.autoconfigure.metrics;

import dev.watchkeeper.store.ObjectKey;
import io.micrometer.observation.Observation;

/**
 * What an {@link ObservationReconcileObserver} knows of one reconcile, for a {@link ReconcileObservationConvention}:
 * the reconciler, the object's key, the resource it reconciles and, once it returned, how it ended.
 */
public class ReconcileObservationContext extends Observation.Context {

    private final String reconciler;
    private final ObjectKey key;
    private final String resource;
    private volatile Outcome outcome;

    /** How a reconcile ended. */
    public enum Outcome {
        /** Returned without asking for a requeue. */
        DONE,
        /** Returned a requeue. */
        REQUEUE,
        /** Threw. */
        ERROR,
        /** Ran past its reconciler's timeout and was interrupted. */
        TIMEOUT
    }

    /**
     * @param reconciler the reconciler's name
     * @param key        the object's key
     * @param resource   the resource of the reconciler's primary watcher, or {@code unknown}
     */
    public ReconcileObservationContext(String reconciler, ObjectKey key, String resource) {
        this.reconciler = reconciler;
        this.key = key;
        this.resource = resource;
    }

    /** The reconciler's name. */
    public String reconciler() {
        return reconciler;
    }

    /** The key of the object reconciled. */
    public ObjectKey key() {
        return key;
    }

    /** The resource of the reconciler's primary watcher, e.g. {@code configmaps}, or {@code unknown}. */
    public String resource() {
        return resource;
    }

    /** How the reconcile ended; {@code null} while it runs. */
    public Outcome outcome() {
        return outcome;
    }

    void outcome(Outcome outcome) {
        this.outcome = outcome;
    }
}
