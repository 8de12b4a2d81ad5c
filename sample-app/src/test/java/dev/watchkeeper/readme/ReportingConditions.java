package dev.watchkeeper.readme;

import dev.watchkeeper.annotation.Reconciler;
import dev.watchkeeper.reconcile.Conditions;
import dev.watchkeeper.reconcile.ReconcileContext;
import dev.watchkeeper.sample.generator.ConfigMapGenerator;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1ConfigMap;

class ReportingConditions {

    // tag::conditions[]
    @Reconciler(owns = V1ConfigMap.class)
    void reconcile(ConfigMapGenerator generator, ReconcileContext context)
            throws ApiException, InterruptedException {
        int wanted = generator.getSpec().getReplicas();
        int ready = context.owned(V1ConfigMap.class).size();
        context.updateConditions(generator, conditions -> conditions   // at the generation handed, retried on 409
                .set(Conditions.READY, ready == wanted, ready == wanted ? "Synced" : "Creating",
                        ready + " of " + wanted + " ConfigMaps up to date"));
    }
    // end::conditions[]
}
