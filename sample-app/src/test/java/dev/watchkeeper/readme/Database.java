package dev.watchkeeper.readme;

import com.google.gson.annotations.SerializedName;
import dev.watchkeeper.annotation.KubernetesResource;
import dev.watchkeeper.annotation.ListType;
import dev.watchkeeper.annotation.PrinterColumn;
import dev.watchkeeper.annotation.ValidationRule;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.custom.IntOrString;
import io.kubernetes.client.openapi.models.V1Condition;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import java.util.List;

/** The custom resource of docs/crds.md whose CRD is generated; {@code GeneratedCrdOnControlPlaneTest} applies it. */
// tag::crd-types[]
@KubernetesResource(group = "example.com", version = "v1", plural = "databases", shortNames = "db")
@PrinterColumn(name = "Engine", jsonPath = ".spec.engine")
@PrinterColumn(name = "Age", type = "date", jsonPath = ".metadata.creationTimestamp")
public class Database implements KubernetesObject {

    private String apiVersion;
    private String kind;
    private V1ObjectMeta metadata;
    private Spec spec;
    private Status status;                  // a status field: the CRD gets the status subresource

    @ValidationRule(value = "self.engine != 'postgres' || self.replicas % 2 == 1",
            message = "postgres needs an odd number of replicas")
    public static class Spec {
        @NotNull
        private Engine engine;              // an enum: the schema lists its values
        @Min(1) @Max(9)
        private int replicas = 1;
        @Pattern(regexp = "^[a-z][a-z0-9_]*$")
        private String databaseName;
        private IntOrString port;           // x-kubernetes-int-or-string
        @ListType(value = ListType.Kind.MAP, keys = "name")
        private List<User> users;           // server-side apply merges users by name
    }

    public enum Engine { @SerializedName("postgres") POSTGRES, @SerializedName("mysql") MYSQL }

    public static class User {
        @NotNull
        private String name;                // a map list's key must be required
        private String role;
    }

    public static class Status {
        private List<V1Condition> conditions;
    }
    // end::crd-types[]

    @Override
    public String getApiVersion() {
        return apiVersion;
    }

    @Override
    public String getKind() {
        return kind;
    }

    @Override
    public V1ObjectMeta getMetadata() {
        return metadata;
    }
}
