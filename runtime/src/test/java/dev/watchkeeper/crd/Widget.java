package dev.watchkeeper.crd;

import com.google.gson.JsonObject;
import com.google.gson.annotations.SerializedName;
import dev.watchkeeper.annotation.KubernetesResource;
import dev.watchkeeper.annotation.ListType;
import dev.watchkeeper.annotation.PrinterColumn;
import dev.watchkeeper.annotation.ScaleSubresource;
import dev.watchkeeper.annotation.ValidationRule;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.custom.IntOrString;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;

/** A custom resource with one field of each kind the generator maps. */
@KubernetesResource(group = "test.watchkeeper.dev", version = "v1alpha1", plural = "widgets", kind = "Gizmo",
        shortNames = {"gz", "giz"})
@ScaleSubresource(specReplicasPath = ".spec.replicas", statusReplicasPath = ".status.replicas")
@PrinterColumn(name = "Replicas", type = "integer", jsonPath = ".spec.replicas")
@PrinterColumn(name = "Ready", jsonPath = ".status.conditions[?(@.type==\"Ready\")].status", priority = 1,
        description = "Whether it is ready")
class Widget implements KubernetesObject {

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

    enum Mode {
        @SerializedName("fast") FAST,
        SLOW
    }

    @ValidationRule(value = "self.minReplicas <= self.replicas", message = "replicas below minReplicas")
    static class Spec {

        @NotNull
        @Size(min = 1, max = 63)
        @Pattern(regexp = "[a-z]+")
        String name;

        @Min(0)
        @Max(10)
        int replicas;

        @SerializedName("min_replicas")
        @Min(1)
        @Min(value = 2, groups = Strict.class)
        @Max(8)
        @Max(value = 5, groups = Strict.class)
        Integer minReplicas;

        @Pattern(regexp = "[a-z-]+")
        @Pattern(regexp = ".*[a-z]", message = "ends with a letter")
        String suffix;

        long bytes;
        double ratio;
        boolean enabled;
        Mode mode;
        IntOrString port;
        OffsetDateTime since;

        @Size(max = 5)
        Map<String, String> labels;

        Map<String, Object> extra;
        JsonObject raw;
        Object anything;
        V1ConfigMap template;

        @Size(min = 1)
        @ListType(value = ListType.Kind.MAP, keys = "name")
        List<Port> ports;

        @ListType(ListType.Kind.SET)
        @ValidationRule("self.all(t, t != 'forbidden')")
        List<String> tags;

        static final String IGNORED = "static";
        transient String cached;
    }

    interface Strict {
    }

    static class Port {

        @NotNull
        String name;

        int number;
    }

    static class Status {

        Integer replicas;
    }
}
