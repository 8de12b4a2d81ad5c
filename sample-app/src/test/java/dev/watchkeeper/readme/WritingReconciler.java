package dev.watchkeeper.readme;

import dev.watchkeeper.annotation.Reconciler;
import dev.watchkeeper.reconcile.ReconcileContext;
import dev.watchkeeper.sample.generator.ConfigMapGenerator;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;

class WritingReconciler {

    // tag::writes[]
    @Reconciler(owns = V1ConfigMap.class)
    void reconcile(ConfigMapGenerator generator, ReconcileContext context)
            throws ApiException, InterruptedException {
        V1ObjectMeta meta = generator.getMetadata();
        context.applyOwned(new V1ConfigMap()                       // server-side apply, owned by the generator
                .metadata(new V1ObjectMeta().namespace(meta.getNamespace()).name(meta.getName() + "-0"))
                .data(generator.getSpec().getContent()));
        context.updateStatus(generator, g -> g.setStatus(         // retried on 409, skipped when unchanged
                new ConfigMapGenerator.Status().observedGeneration(g.getMetadata().getGeneration())));
    }
    // end::writes[]
}
