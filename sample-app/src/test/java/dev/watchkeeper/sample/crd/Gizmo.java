package dev.watchkeeper.sample.crd;

import com.google.gson.JsonObject;
import dev.watchkeeper.annotation.KubernetesResource;
import dev.watchkeeper.annotation.ListType;
import dev.watchkeeper.annotation.PrinterColumn;
import dev.watchkeeper.annotation.ScaleSubresource;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.custom.IntOrString;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** A custom resource with every schema feature the generator has that the sample's and docs/crds.md's lack. */
@KubernetesResource(group = "test.watchkeeper.dev", version = "v1beta1", plural = "gizmos", namespaced = false)
@ScaleSubresource(specReplicasPath = ".spec.replicas", statusReplicasPath = ".status.replicas",
        labelSelectorPath = ".status.selector")
@PrinterColumn(name = "Size", type = "string", jsonPath = ".spec.size", priority = 1, description = "How big")
class Gizmo implements KubernetesObject {

    String apiVersion;
    String kind;
    V1ObjectMeta metadata;
    Spec spec;
    Status status;

    @Override
    public V1ObjectMeta getMetadata() {
        return metadata;
    }

    @Override
    public String getApiVersion() {
        return apiVersion;
    }

    @Override
    public String getKind() {
        return kind;
    }

    static class Spec {
        int replicas;
        Quantity size;
        IntOrString port;
        double ratio;
        long bytes;
        OffsetDateTime since;
        byte[] blob;
        Object anything;
        JsonObject raw;
        Map<String, Object> extra;
        V1ConfigMap template;
        @Size(min = 1, max = 3)
        Map<String, List<String>> groups;
        @Size(max = 4)
        @ListType(ListType.Kind.SET)
        Set<String> tags;
        @Size(min = 2, max = 20)
        @Pattern(regexp = "^[a-z-]+$")
        @Pattern(regexp = "[a-z]$")
        String label;
        @ListType(ListType.Kind.ATOMIC)
        int[] weights;
    }

    static class Status {
        Integer replicas;
        String selector;
    }
}
