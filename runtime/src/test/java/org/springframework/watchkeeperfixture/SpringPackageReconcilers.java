package org.springframework.watchkeeperfixture;

import dev.watchkeeper.annotation.Reconciler;
import io.kubernetes.client.openapi.models.V1ConfigMap;

/** A class in Spring's own package, as Spring's container classes are: the annotation finder does not walk it. */
public class SpringPackageReconcilers {

    @Reconciler(name = "in-spring-package")
    public void reconcile(V1ConfigMap configMap) {
    }
}
