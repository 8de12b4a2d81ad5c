package dev.watchkeeper.readme;

import dev.watchkeeper.annotation.Reconciler;
import dev.watchkeeper.reconcile.ReconcileContext;
import dev.watchkeeper.reconcile.ReconcileResult;
import dev.watchkeeper.sample.generator.ConfigMapGenerator;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;

class PublishingEvents {

    // tag::events[]
    @Reconciler(owns = V1ConfigMap.class)
    ReconcileResult reconcile(ConfigMapGenerator generator, ReconcileContext context) throws ApiException {
        if (generator.getSpec() == null || generator.getSpec().getContent() == null) {
            // queued, never waited for; a repeat within minutes counts in the same Event's series
            context.publishEvent("Warning", "InvalidSpec", "spec.content is missing");
            return ReconcileResult.done();
        }
        context.applyOwned(new V1ConfigMap()
                .metadata(new V1ObjectMeta().namespace(generator.getMetadata().getNamespace())
                        .name(generator.getMetadata().getName()))
                .data(generator.getSpec().getContent()));
        context.publishEvent("Normal", "Generated", "CreateConfigMap", "applied its ConfigMap");  // with an action
        return ReconcileResult.done();
    }
    // end::events[]
}
