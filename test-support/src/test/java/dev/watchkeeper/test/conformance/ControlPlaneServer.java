package dev.watchkeeper.test.conformance;

import dev.watchkeeper.test.controlplane.KubeControlPlane;
import dev.watchkeeper.test.controlplane.TestNamespace;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.RbacAuthorizationV1Api;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.RbacV1Subject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PolicyRule;
import io.kubernetes.client.openapi.models.V1Role;
import io.kubernetes.client.openapi.models.V1RoleBinding;
import io.kubernetes.client.openapi.models.V1RoleRef;

import java.util.List;

/**
 * The real control plane as a {@link ServerUnderTest}: RBAC decides what the unprivileged user may do. The main
 * server has the ShardedListAndWatch gate off (its default); a second one started with it on serves the shard
 * scenarios, so that every other test of the JVM keeps the one shared server.
 */
record ControlPlaneServer(KubeControlPlane plane, TestNamespace testNamespace) implements ServerUnderTest {

    private static final List<String> SHARD_SELECTORS = List.of("--feature-gates=ShardedListAndWatch=true");

    @Override
    public String name() {
        return "control-plane";
    }

    @Override
    public ApiClient apiClient() {
        return plane.apiClient();
    }

    @Override
    public String namespace() {
        return testNamespace.name();
    }

    @Override
    public void compact() {
        plane.compact();
    }

    @Override
    public ApiClient restrictedClient() {
        return plane.unprivilegedApiClient();
    }

    @Override
    public void grantConfigMaps() {
        RbacAuthorizationV1Api rbac = new RbacAuthorizationV1Api(plane.apiClient());
        String name = "configmap-reader";
        try {
            rbac.createNamespacedRole(namespace(), new V1Role().metadata(new V1ObjectMeta().name(name))
                    .rules(List.of(new V1PolicyRule().apiGroups(List.of("")).resources(List.of("configmaps"))
                            .verbs(List.of("get", "list", "watch"))))).execute();
            rbac.createNamespacedRoleBinding(namespace(), new V1RoleBinding().metadata(new V1ObjectMeta().name(name))
                    .roleRef(new V1RoleRef().apiGroup("rbac.authorization.k8s.io").kind("Role").name(name))
                    .subjects(List.of(new RbacV1Subject().kind("User").apiGroup("rbac.authorization.k8s.io")
                            .name(plane.unprivilegedUser())))).execute();
        } catch (ApiException e) {
            throw new IllegalStateException(e.getCode() + " " + e.getResponseBody(), e);
        }
    }

    @Override
    public ApiClient withoutWatchList() {
        return clientWithNamespace(List.of("--feature-gates=WatchList=false"));
    }

    @Override
    public ApiClient withShardSelectors() {
        return clientWithNamespace(SHARD_SELECTORS);
    }

    @Override
    public ApiClient withoutShardSelectors() {
        return apiClient();
    }

    /** A client of the control plane started with {@code apiServerFlags}, with {@link #namespace()} created there. */
    private ApiClient clientWithNamespace(List<String> apiServerFlags) {
        ApiClient client = KubeControlPlane.shared(apiServerFlags).apiClient();
        try {
            new CoreV1Api(client).createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(namespace())))
                    .execute();
        } catch (ApiException e) {
            if (e.getCode() != 409) {
                throw new IllegalStateException(e.getCode() + " " + e.getResponseBody(), e);
            }
        }
        return client;
    }

    @Override
    public List<String> kubectl() {
        return List.of(plane.kubectl().toString(), "--kubeconfig", plane.kubeconfig().toString());
    }
}
