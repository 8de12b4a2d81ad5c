package dev.watchkeeper.examples.webpage;

import dev.watchkeeper.annotation.Reconciler;
import dev.watchkeeper.reconcile.ReconcileContext;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1Ingress;
import io.kubernetes.client.openapi.models.V1Service;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;

/**
 * The original's default flavour, "standalone dependents": the page is checked first (a simulated error, crude HTML
 * validation), and only a valid page reaches its dependents; then the status says which ConfigMap holds it.
 */
@Component
@ConditionalOnProperty(name = "webpage.reconciler", havingValue = "standalone", matchIfMissing = true)
class StandaloneWebPageReconciler {

    // tag::reconcile[]
    @Reconciler(name = "webpage", namespace = "${webpage.namespace:}",
            owns = {V1ConfigMap.class, V1Deployment.class, V1Service.class, V1Ingress.class})
    void reconcile(WebPage page, ReconcileContext context) throws ApiException, InterruptedException {
        WebPageStatus.failOnSimulatedError(page, context);
        if (!WebPageStatus.isValidHtml(page)) {
            WebPageStatus.invalidHtml(page, context);
            return;
        }
        context.reconcileDependents(WebPageDependents.DEPENDENTS);
        WebPageStatus.good(page, context);
    }
    // end::reconcile[]
}
