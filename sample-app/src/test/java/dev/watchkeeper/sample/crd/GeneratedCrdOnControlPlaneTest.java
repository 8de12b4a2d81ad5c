package dev.watchkeeper.sample.crd;

import static org.assertj.core.api.Assertions.assertThat;

import dev.watchkeeper.test.boot.AutoConfigureRealKubeApi;
import dev.watchkeeper.test.controlplane.TestNamespace;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The generated CRD on the real control plane, whose API server also enforces the schema's validations. */
@AutoConfigureRealKubeApi
class GeneratedCrdOnControlPlaneTest extends GeneratedCrdScenario {

    @BeforeEach
    void inTheClassNamespace(TestNamespace testNamespace) {
        namespace = testNamespace.name();
    }

    @Test
    void aReplicaCountBelowMinIsRefused() {
        KubernetesApiResponse<DynamicKubernetesObject> refused = create("negative",
                Map.of("content", Map.of("a", "b"), "replicas", -1));

        assertThat(refused.getHttpStatusCode()).isEqualTo(422);
        assertThat(refused.getStatus().getMessage())
                .contains("spec.replicas: Invalid value: -1: spec.replicas in body should be greater than or equal to 0");
    }

    @Test
    void aNamePrefixBreakingTheCelRuleIsRefusedWithItsMessage() {
        KubernetesApiResponse<DynamicKubernetesObject> refused = create("dashed",
                Map.of("content", Map.of("a", "b"), "namePrefix", "hello-"));

        assertThat(refused.getHttpStatusCode()).isEqualTo(422);
        assertThat(refused.getStatus().getMessage())
                .contains("namePrefix must not end with '-': the ConfigMaps' names add '-<i>'");
    }

    @Test
    void aGeneratorWithoutContentIsRefused() {
        KubernetesApiResponse<DynamicKubernetesObject> refused = create("empty", Map.of("replicas", 1));

        assertThat(refused.getHttpStatusCode()).isEqualTo(422);
        assertThat(refused.getStatus().getMessage()).contains("spec.content: Required value");
    }
}
