package dev.watchkeeper.resource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.EventsV1Event;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1Lease;
import io.kubernetes.client.openapi.models.V1Role;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.common.KubernetesObject;
import org.junit.jupiter.api.Test;

class ResourceTypeTest {

    @Test
    void builtInModelsKnowTheirApiGroupOffline() {
        assertThat(ResourceType.of(V1ConfigMap.class).apiVersion()).isEqualTo("v1");
        assertThat(ResourceType.of(V1Deployment.class).apiVersion()).isEqualTo("apps/v1");
        assertThat(ResourceType.of(V1Role.class).apiVersion()).isEqualTo("rbac.authorization.k8s.io/v1");
        assertThat(ResourceType.of(V1Lease.class).apiVersion()).isEqualTo("coordination.k8s.io/v1");
        assertThat(ResourceType.of(CoreV1Event.class).apiVersion()).isEqualTo("v1");
        assertThat(ResourceType.of(EventsV1Event.class).apiVersion()).isEqualTo("events.k8s.io/v1");
    }

    @Test
    void aClassThatIsNotABuiltInModelNeedsItsCoordinates() {
        assertThatThrownBy(() -> ResourceType.of(Custom.class))
                .hasMessageContaining("is not a built-in Kubernetes model");
    }

    @Test
    void resolvedResourcesBuildCollectionPaths() {
        ResolvedResource deployments = new ResolvedResource("apps", "v1", "deployments", true);
        assertThat(deployments.collectionPath("default")).isEqualTo("/apis/apps/v1/namespaces/default/deployments");
        assertThat(deployments.collectionPath(null)).isEqualTo("/apis/apps/v1/deployments");
        assertThat(new ResolvedResource("", "v1", "nodes", false).collectionPath("default")).isEqualTo("/api/v1/nodes");
    }

    static final class Custom implements KubernetesObject {
        @Override
        public V1ObjectMeta getMetadata() {
            return null;
        }

        @Override
        public String getApiVersion() {
            return "x/v1";
        }

        @Override
        public String getKind() {
            return "Custom";
        }
    }
}
