package dev.watchkeeper.readme;

import dev.watchkeeper.annotation.Reconciler;
import dev.watchkeeper.sample.generator.ConfigMapGenerator;
import io.kubernetes.client.openapi.models.V1ConfigMap;

class QueueOptions {

    // tag::debounce[]
    @Reconciler(owns = V1ConfigMap.class, debounce = "${app.generators.debounce:2s}")
    void reconcile(ConfigMapGenerator generator) {
        // a burst of edits of one generator (or of its ConfigMaps) makes one reconcile, 2 s after the first
    }
    // end::debounce[]
}
