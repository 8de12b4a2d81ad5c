package dev.watchkeeper.test.readme;

import dev.watchkeeper.test.controlplane.KubeControlPlane;
import dev.watchkeeper.test.controlplane.RealKubeApi;
import dev.watchkeeper.test.controlplane.TestNamespace;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;

// tag::real-kube-api[]
@RealKubeApi
class MyControllerTest {
    @Test
    void reconciles(KubeControlPlane plane, TestNamespace namespace) throws Exception {
        V1ConfigMap configMap = new V1ConfigMap().metadata(new V1ObjectMeta().name("app-config"));
        new CoreV1Api(plane.apiClient()).createNamespacedConfigMap(namespace.name(), configMap).execute();
        // … then start your controller on plane.kubeconfig() and assert what it did
    }
}
// end::real-kube-api[]
