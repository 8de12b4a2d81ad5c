package dev.watchkeeper.readme;

import dev.watchkeeper.annotation.Cleanup;
import dev.watchkeeper.annotation.Reconciler;
import dev.watchkeeper.reconcile.ReconcileContext;
import dev.watchkeeper.sample.generator.ConfigMapGenerator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

class CleaningUpReconciler {

    /** Stands for something outside the cluster that the reconciler keeps per generator. */
    private final Map<String, String> registrations = new ConcurrentHashMap<>();

    // tag::finalizer[]
    @Reconciler(finalizer = "samples.watchkeeper.dev/cleanup")
    void reconcile(ConfigMapGenerator generator) {               // the finalizer is on it already
        registrations.put(generator.getMetadata().getUid(), generator.getMetadata().getName());
    }

    @Cleanup                                                     // once it is being deleted, instead of reconcile
    void cleanup(ConfigMapGenerator generator, ReconcileContext context) {
        registrations.remove(generator.getMetadata().getUid()); // throw to keep the finalizer and retry
        context.publishEvent("Normal", "CleanedUp", "unregistered");
    }                                                            // returns: the finalizer is removed
    // end::finalizer[]
}
