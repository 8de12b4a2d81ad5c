package dev.watchkeeper.readme;

import dev.watchkeeper.annotation.Reconciler;
import dev.watchkeeper.reconcile.ReconcileContext;
import dev.watchkeeper.reconcile.ReconcileResult;
import dev.watchkeeper.reconcile.Trigger;
import dev.watchkeeper.sample.generator.ConfigMapGenerator;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import java.util.List;
import org.springframework.stereotype.Component;

// tag::reconciler[]
@Component
class GeneratorController {

    @Reconciler(namespace = "${app.namespace:default}", owns = V1ConfigMap.class, concurrency = 2,
                triggerOn = Trigger.GENERATION)
    ReconcileResult reconcile(ConfigMapGenerator generator, ReconcileContext context) {
        List<V1ConfigMap> owned = context.owned(V1ConfigMap.class);   // the ConfigMaps it controls
        // create or update what the generator asks for, through context.apiClient()
        return ReconcileResult.done();            // or ReconcileResult.requeueAfter(Duration.ofMinutes(1))
    }
}
// end::reconciler[]
