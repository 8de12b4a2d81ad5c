package dev.watchkeeper.internal.resource;

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
import io.kubernetes.client.apimachinery.GroupVersionKind;
import io.kubernetes.client.util.ModelMapper;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

class ResourceTypeTest {

    private static final Pattern VERSION_IN_KIND = Pattern.compile("((?:alpha|beta)[0-9]+)([A-Z].*)");

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
    void readingModelNamesAgreesWithTheClientsModelMap() throws Exception {
        Resource[] classes = new PathMatchingResourcePatternResolver()
                .getResources("classpath*:io/kubernetes/client/openapi/models/*.class");
        int compared = 0;
        for (Resource resource : classes) {
            String file = resource.getFilename();
            if (file == null || file.contains("$")) {
                continue;
            }
            Class<?> type = Class.forName("io.kubernetes.client.openapi.models." + file.replace(".class", ""));
            if (!KubernetesObject.class.isAssignableFrom(type)) {
                continue;
            }
            GroupVersionKind expected = ModelMapper.preBuiltGetGroupVersionKindByClass(type).orElseThrow();
            GroupVersionKind read = BuiltInResources.groupVersionKind(type).orElseThrow();
            Matcher misread = VERSION_IN_KIND.matcher(expected.getKind());
            List<String> want = misread.matches() // the map misreads V1alpha2LeaseCandidate as v1, alpha2LeaseCandidate
                    ? List.of(expected.getGroup(), expected.getVersion() + misread.group(1), misread.group(2))
                    : List.of(expected.getGroup(), expected.getVersion(), expected.getKind());
            assertThat(List.of(read.getGroup(), read.getVersion(), read.getKind())).as(type.getSimpleName())
                    .isEqualTo(want);
            compared++;
        }
        assertThat(compared).as("models compared").isGreaterThan(90);
        assertThat(BuiltInResources.groupVersionKind(Custom.class)).isEmpty();
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

    @Test
    void theQualifiedNameIsTheCrdNameWithThePluralGuessedFromTheKindUntilDiscovery() {
        assertThat(new ResourceType<>(Custom.class, "example.com", "v1", "Widget", null, null).qualifiedName())
                .isEqualTo("widgets.example.com");
        assertThat(ResourceType.custom(Custom.class, "example.com", "v1", "gadgetry", true).qualifiedName())
                .isEqualTo("gadgetry.example.com");
        assertThat(ResourceType.of(V1ConfigMap.class).qualifiedName()).isEqualTo("configmaps");
        assertThat(ResourceType.of(V1Deployment.class).qualifiedName()).isEqualTo("deployments.apps");
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
