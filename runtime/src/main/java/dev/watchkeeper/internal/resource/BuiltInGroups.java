package dev.watchkeeper.internal.resource;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The API group of each built-in kind outside the core group. The client's offline model map records the core
 * group for most models ({@code V1Deployment} maps to {@code v1 Deployment}, not {@code apps/v1}), so without this a
 * watcher of deployments would ask {@code /api/v1/deployments}. Kinds that exist in the core group too
 * ({@code Event}) are absent: their models name the group in the class ({@code EventsV1Event}).
 */
final class BuiltInGroups {

    private static final Map<String, String> GROUP_BY_KIND = index(Map.ofEntries(
            Map.entry("apps", List.of("Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "ControllerRevision")),
            Map.entry("batch", List.of("Job", "CronJob")),
            Map.entry("autoscaling", List.of("HorizontalPodAutoscaler")),
            Map.entry("policy", List.of("PodDisruptionBudget")),
            Map.entry("networking.k8s.io", List.of("Ingress", "IngressClass", "NetworkPolicy", "IPAddress",
                    "ServiceCIDR")),
            Map.entry("rbac.authorization.k8s.io", List.of("Role", "RoleBinding", "ClusterRole",
                    "ClusterRoleBinding")),
            Map.entry("coordination.k8s.io", List.of("Lease", "LeaseCandidate")),
            Map.entry("apiextensions.k8s.io", List.of("CustomResourceDefinition")),
            Map.entry("admissionregistration.k8s.io", List.of("ValidatingWebhookConfiguration",
                    "MutatingWebhookConfiguration", "ValidatingAdmissionPolicy", "ValidatingAdmissionPolicyBinding",
                    "MutatingAdmissionPolicy", "MutatingAdmissionPolicyBinding")),
            Map.entry("storage.k8s.io", List.of("StorageClass", "VolumeAttachment", "CSIDriver", "CSINode",
                    "CSIStorageCapacity", "VolumeAttributesClass")),
            Map.entry("scheduling.k8s.io", List.of("PriorityClass")),
            Map.entry("node.k8s.io", List.of("RuntimeClass")),
            Map.entry("discovery.k8s.io", List.of("EndpointSlice")),
            Map.entry("certificates.k8s.io", List.of("CertificateSigningRequest", "ClusterTrustBundle")),
            Map.entry("flowcontrol.apiserver.k8s.io", List.of("FlowSchema", "PriorityLevelConfiguration")),
            Map.entry("apiregistration.k8s.io", List.of("APIService")),
            Map.entry("resource.k8s.io", List.of("ResourceClaim", "ResourceClaimTemplate", "DeviceClass",
                    "ResourceSlice")),
            Map.entry("storagemigration.k8s.io", List.of("StorageVersionMigration")),
            Map.entry("internal.apiserver.k8s.io", List.of("StorageVersion"))));

    private BuiltInGroups() {
    }

    /** The group of built-in {@code kind}, or {@code ""} for the core group (and for kinds we do not know). */
    static String groupOf(String kind) {
        return GROUP_BY_KIND.getOrDefault(kind, "");
    }

    private static Map<String, String> index(Map<String, List<String>> kindsByGroup) {
        Map<String, String> index = new HashMap<>();
        kindsByGroup.forEach((group, kinds) -> kinds.forEach(kind -> index.put(kind, group)));
        return Map.copyOf(index);
    }
}
