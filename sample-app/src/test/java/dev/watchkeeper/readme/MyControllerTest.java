package dev.watchkeeper.readme;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.watchkeeper.test.controlplane.KubeControlPlane;
import dev.watchkeeper.test.controlplane.RealKubeApi;
import dev.watchkeeper.test.controlplane.TestNamespace;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

// tag::real-kube-api[]
@RealKubeApi
class MyControllerTest {
    @Test
    void reconciles(KubeControlPlane plane, TestNamespace namespace) throws Exception {
        CoreV1Api api = new CoreV1Api(plane.apiClient());
        api.createNamespacedConfigMap(namespace.name(),
                new V1ConfigMap().metadata(new V1ObjectMeta().name("app-config"))).execute();

        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(MyController.class)
                .web(WebApplicationType.NONE)
                .initializers(context -> context.getBeanFactory().registerSingleton("apiClient", plane.apiClient()))
                .run("--watchkeeper.reconcilers.my-controller.namespaces=" + namespace.name())) {
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(
                    api.readNamespacedConfigMap("app-config", namespace.name()).execute().getMetadata().getLabels())
                    .containsEntry("reconciled", "true"));
        }
    }
}
// end::real-kube-api[]
