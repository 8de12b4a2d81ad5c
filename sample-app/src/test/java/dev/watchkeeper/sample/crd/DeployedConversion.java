package dev.watchkeeper.sample.crd;

import dev.watchkeeper.crd.CustomResourceDefinitions;
import dev.watchkeeper.sample.generator.ConfigMapGenerator;
import dev.watchkeeper.test.controlplane.KubeControlPlane;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.ApiextensionsV1ServiceReference;
import io.kubernetes.client.openapi.models.ApiextensionsV1WebhookClientConfig;
import java.util.List;
import java.util.Map;

/**
 * The conversion webhook {@code deploy/} declares: the Service {@value #SERVICE} in {@value #NAMESPACE}
 * ({@code deploy/03-deployment.yaml}), as the pom's {@code generate-crds} execution passes it.
 */
public final class DeployedConversion {

    public static final String NAMESPACE = "watchkeeper-sample";
    public static final String SERVICE = "watchkeeper-sample-webhooks";

    private DeployedConversion() {
    }

    /** The client config {@code deploy/01-crd.yaml} has, without a CA bundle. */
    public static ApiextensionsV1WebhookClientConfig clientConfig() {
        return new ApiextensionsV1WebhookClientConfig().service(new ApiextensionsV1ServiceReference()
                .namespace(NAMESPACE).name(SERVICE).path("/convert").port(443));
    }

    /**
     * Puts the CRD's conversion back as {@code deploy/} has it, after a test had the application point it at its
     * own URL: {@code kubectl apply} of {@code deploy/} by a later test would add the Service beside the URL, which
     * the API server refuses.
     */
    @SuppressWarnings("unchecked")
    public static void restore(KubeControlPlane plane) {
        Map<String, Object> spec = (Map<String, Object>) CustomResourceDefinitions
                .definition(ConfigMapGenerator.class, clientConfig()).get("spec");
        String patch = JSON.getGson().toJson(List.of(Map.of("op", "replace", "path", "/spec/conversion",
                "value", spec.get("conversion"))));
        plane.kubectl("patch", "crd", ConfigMapGenerator.PLURAL + "." + ConfigMapGenerator.GROUP, "--type=json",
                "-p", patch);
    }
}
