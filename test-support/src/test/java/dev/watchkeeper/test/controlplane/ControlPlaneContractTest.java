package dev.watchkeeper.test.controlplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodTemplate;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import okhttp3.Call;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.Test;

/**
 * What tests rely on from {@code controlplane/start}: a real server of the built release, kubectl of the same
 * release, the built-in API groups, an admin and an unprivileged token, and {@code compact} reaching watches of
 * {@code podtemplates}, which are served without the watch cache.
 */
@RealKubeApi
class ControlPlaneContractTest {

    @Test
    void kubectlAndTheServerAreTheBuiltRelease(KubeControlPlane plane) {
        assertThat(plane.kubectl("version")).contains("Client Version: v1.37.2", "Server Version: v1.37.2");
        assertThat(plane.kubectl("api-resources", "-o", "name")).contains("configmaps", "deployments.apps",
                "leases.coordination.k8s.io", "roles.rbac.authorization.k8s.io",
                "customresourcedefinitions.apiextensions.k8s.io");
    }

    @Test
    void theUnprivilegedTokenAuthenticatesButMayNotList(KubeControlPlane plane, TestNamespace namespace) {
        assertThatThrownBy(() -> new CoreV1Api(plane.unprivilegedApiClient()).listNamespacedConfigMap(namespace.name())
                .execute()).isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.getCode()).isEqualTo(403);
                    assertThat(e.getResponseBody()).contains(plane.unprivilegedUser(), "cannot list resource");
                });
    }

    @Test
    void aCompactionExpiresWatchesOfPodTemplatesFromOlderVersions(KubeControlPlane plane, TestNamespace namespace)
            throws Exception {
        CoreV1Api core = new CoreV1Api(plane.apiClient());
        String before = core.createNamespacedPodTemplate(namespace.name(), new V1PodTemplate()
                .metadata(new V1ObjectMeta().name("before"))
                .template(new V1PodTemplateSpec().spec(new V1PodSpec().containers(
                        List.of(new V1Container().name("main").image("registry.invalid/none:1"))))))
                .execute().getMetadata().getResourceVersion();
        core.deleteNamespacedPodTemplate("before", namespace.name()).execute();

        plane.compact();

        Call watch = plane.apiClient().getHttpClient().newCall(new Request.Builder()
                .url(plane.apiClient().getBasePath() + "/api/v1/namespaces/" + namespace.name()
                        + "/podtemplates?watch=true&timeoutSeconds=5&resourceVersion=" + before)
                .header("Authorization", bearer(plane)).build());
        try (Response response = watch.execute();
             BufferedReader lines = new BufferedReader(new InputStreamReader(response.body().byteStream(),
                     StandardCharsets.UTF_8))) {
            String first = response.code() == 200 ? lines.readLine() : response.body().string();
            assertThat(first).contains("\"code\":410").contains("Expired");
        }
    }

    private static String bearer(KubeControlPlane plane) throws Exception {
        String kubeconfig = java.nio.file.Files.readString(plane.kubeconfig());
        return "Bearer " + kubeconfig.lines().filter(l -> l.strip().startsWith("token:")).findFirst().orElseThrow()
                .strip().substring("token:".length()).strip();
    }
}
