package dev.watchkeeper.readme;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.watchkeeper.test.boot.AutoConfigureRealKubeApi;
import dev.watchkeeper.test.controlplane.TestNamespace;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

// tag::test-services[]
@SpringBootTest(classes = MyController.class)
@AutoConfigureRealKubeApi            // or @AutoConfigureInMemoryKubeApi: the same test without a cluster
class MyControllerOnControlPlaneTest {

    @Autowired
    ApiClient client;                // the starter's own, connected to the test's API server

    @Test
    void reconciles(TestNamespace namespace) throws Exception {
        CoreV1Api api = new CoreV1Api(client);
        api.createNamespacedConfigMap(namespace.name(),
                new V1ConfigMap().metadata(new V1ObjectMeta().name("app-config"))).execute();

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(
                api.readNamespacedConfigMap("app-config", namespace.name()).execute().getMetadata().getLabels())
                .containsEntry("reconciled", "true"));
    }
}
// end::test-services[]
