package dev.watchkeeper.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.watchkeeper.sample.crd.DeployedConversion;
import dev.watchkeeper.test.boot.AutoConfigureRealKubeApi;
import dev.watchkeeper.test.controlplane.KubeControlPlane;
import dev.watchkeeper.test.controlplane.TestNamespace;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.AdmissionregistrationV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The sample's validating webhook on the real control plane, started as the sample's contract says: the
 * {@code cluster} profile and the address the API server calls ({@code watchkeeper.webhooks.url} and {@code port}),
 * nothing else; the sample then serves and registers its webhook, the kube-apiserver asks it before it stores a
 * generator, and one whose names would take over a ConfigMap someone else owns is refused naming it. The
 * configuration and the certificate Secret are removed and the CRD's conversion (which the registration pointed at
 * the test's URL too) put back after the class, so the other sample tests on this control plane never meet the
 * webhook.
 */
@AutoConfigureRealKubeApi
@SpringBootTest(classes = SampleApplication.class, properties = {
        "spring.profiles.active=cluster",
        "spring.application.name=" + GeneratorNameWebhookOnControlPlaneTest.NAME,
        "watchkeeper.webhooks.address=127.0.0.1",
        "watchkeeper.webhooks.certificate-secret=" + GeneratorNameWebhookOnControlPlaneTest.NAME})
@DirtiesContext
class GeneratorNameWebhookOnControlPlaneTest {

    static final String NAME = "sample-webhook-test";
    static final int PORT = LoopbackWebhooks.freePort();
    static KubeControlPlane plane;
    static String namespace;

    @BeforeAll
    static void installCrd(KubeControlPlane controlPlane, TestNamespace testNamespace) {
        plane = controlPlane;
        namespace = testNamespace.name();
        LoopbackWebhooks.installCrd(plane);
    }

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        LoopbackWebhooks.register(registry, () -> namespace, PORT);
    }

    @AfterAll
    static void removeWebhook() throws ApiException {
        new AdmissionregistrationV1Api(plane.apiClient()).deleteValidatingWebhookConfiguration(NAME).execute();
        new CoreV1Api(plane.apiClient()).deleteNamespacedSecret(NAME, "default").execute();
        DeployedConversion.restore(plane);
    }

    @Test
    void aGeneratorThatWouldTakeOverSomeoneElsesConfigMapIsRefusedNamingIt() throws Exception {
        new CoreV1Api(plane.apiClient()).createNamespacedConfigMap(namespace, new V1ConfigMap()
                .metadata(new V1ObjectMeta().name("taken-0").namespace(namespace))).execute();

        // until the API server has the configuration and the sample's cache has the ConfigMap
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
                assertThatThrownBy(() -> apply("grabby", "taken"))
                        .hasMessageContaining("admission webhook \"generator-names.samples.watchkeeper.dev\" denied"
                                + " the request: ConfigMap " + namespace + "/taken-0 exists and is not generator"
                                + " grabby's: choose another namePrefix"));

        assertThat(apply("polite", "free")).contains("configmapgenerator.samples.watchkeeper.dev/polite created");
    }

    private static String apply(String name, String prefix) throws IOException {
        Path manifest = Files.createTempFile("generator", ".yaml");
        try {
            Files.writeString(manifest, "apiVersion: samples.watchkeeper.dev/v1\nkind: ConfigMapGenerator\n"
                    + "metadata:\n  name: " + name + "\n  namespace: " + namespace + "\nspec:\n  replicas: 1\n"
                    + "  namePrefix: " + prefix + "\n  content:\n    greeting: hi\n");
            return plane.kubectl("apply", "-f", manifest.toString());
        } finally {
            Files.delete(manifest);
        }
    }
}
