package dev.watchkeeper.readme;

import dev.watchkeeper.annotation.WatchListener;
import dev.watchkeeper.watch.WatchEvent;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

// tag::listener[]
@Component
class ConfigAudit {

    private static final Logger log = LoggerFactory.getLogger(ConfigAudit.class);

    @WatchListener("app-config")
    void onEvent(WatchEvent<V1ConfigMap> event) {         // Init, InitApply, InitDone, Apply, Delete, Failure
        if (event instanceof WatchEvent.Delete<V1ConfigMap> delete) {
            log.warn("deleted: {}", delete.object().getMetadata().getName());
        }
    }

    @WatchListener("app-config")
    void onObject(V1ConfigMap configMap) {                // the object of every InitApply and Apply
    }

    @WatchListener("app-config")
    void onDelete(WatchEvent.Delete<V1ConfigMap> delete) { // only one kind of event
    }
}
// end::listener[]
