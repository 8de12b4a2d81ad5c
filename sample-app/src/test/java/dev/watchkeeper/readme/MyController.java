package dev.watchkeeper.readme;

import dev.watchkeeper.annotation.Reconciler;
import dev.watchkeeper.reconcile.ReconcileContext;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Configuration;

/**
 * The application {@link MyControllerTest} tests: labels every ConfigMap it reconciles {@code reconciled=true}. Not a
 * {@code @SpringBootConfiguration}, so the package's {@code @SpringBootTest}s still find {@code ReadmeApplication}.
 */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
public class MyController {

    @Reconciler(name = "my-controller")
    void reconcile(V1ConfigMap configMap, ReconcileContext context) throws Exception {
        V1ObjectMeta meta = configMap.getMetadata();
        context.apply(new V1ConfigMap().metadata(new V1ObjectMeta().namespace(meta.getNamespace())
                .name(meta.getName()).putLabelsItem("reconciled", "true")));
    }
}
