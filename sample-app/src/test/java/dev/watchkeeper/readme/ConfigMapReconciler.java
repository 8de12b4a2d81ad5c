package dev.watchkeeper.readme;

// tag::getting-started[]
import dev.watchkeeper.annotation.Reconciler;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

@Component
public class ConfigMapReconciler {

    private static final Logger log = LoggerFactory.getLogger(ConfigMapReconciler.class);

    @Reconciler(namespace = "default")
    void reconcile(V1ConfigMap configMap) {
        log.info("reconciling {}", configMap.getMetadata().getName());
    }
}
// end::getting-started[]
