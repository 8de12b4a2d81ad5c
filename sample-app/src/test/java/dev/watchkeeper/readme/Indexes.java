package dev.watchkeeper.readme;

import dev.watchkeeper.reconcile.ReconcileContext;
import dev.watchkeeper.registry.WatcherDeclaration;
import dev.watchkeeper.store.Store;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import java.util.List;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration
class Indexes {

    // tag::indexes[]
    @Bean
    WatcherDeclaration<V1ConfigMap> configMaps() {
        return WatcherDeclaration.of(V1ConfigMap.class)   // a custom index: each ConfigMap under its data keys
                .index("data-key", cm -> cm.getData() == null ? List.of() : cm.getData().keySet());
    }

    static void lookups(Store<V1ConfigMap> store, ReconcileContext context, String generatorUid) {
        List<V1ConfigMap> inDefault = store.listInNamespace("default");
        List<V1ConfigMap> children = store.listByOwner(generatorUid);  // the controller ownerReference's uid
        List<V1ConfigMap> web = store.listByLabel("app", "web");
        List<V1ConfigMap> withYaml = store.listByIndex("data-key", "application.yaml");
        List<V1ConfigMap> owned = context.owned(V1ConfigMap.class);    // what the reconciled object controls
    }
    // end::indexes[]
}
