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
 * The original's "managed workflow" flavour ({@code webpage.reconciler=managed}): the dependents are reconciled
 * first, whatever the page holds, and the reconcile after them only simulates the error and writes the status. The
 * original validates no HTML here, and neither does this.
 */
@Component
@ConditionalOnProperty(name = "webpage.reconciler", havingValue = "managed")
class ManagedWebPageReconciler {

    @Reconciler(name = "webpage", namespace = "${webpage.namespace:}",
            owns = {V1ConfigMap.class, V1Deployment.class, V1Service.class, V1Ingress.class})
    void reconcile(WebPage page, ReconcileContext context) throws ApiException, InterruptedException {
        context.reconcileDependents(WebPageDependents.DEPENDENTS);
        WebPageStatus.failOnSimulatedError(page, context);
        WebPageStatus.good(page, context);
    }
}
