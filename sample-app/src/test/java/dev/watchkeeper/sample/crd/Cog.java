package dev.watchkeeper.sample.crd;

import dev.watchkeeper.annotation.Default;
import dev.watchkeeper.annotation.KubernetesResource;
import dev.watchkeeper.annotation.PreserveUnknownFields;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.List;

/** A toothed wheel: the schema details read from Javadoc and annotations, for the real API server to enforce. */
@KubernetesResource(group = "test.watchkeeper.dev", version = "v1", plural = "cogs")
class Cog implements KubernetesObject {

    String apiVersion;
    String kind;
    V1ObjectMeta metadata;
    Spec spec;

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

    /** What the cog should be. */
    static class Spec {

        /** How many teeth it has. */
        @Positive
        @Default("12")
        int teeth;

        /** Its name, with at least one visible character. */
        @NotBlank
        @Default("plain")
        String name;

        /** What it is made of, each at most 10 characters. */
        @NotEmpty
        @Default("[\"steel\"]")
        List<@Size(max = 10) String> materials;

        /** Kept when written as null. */
        @Nullable
        String note;

        /** Typed, and keeping what others write beside. */
        @PreserveUnknownFields
        Finish finish;
    }

    /**
     * A surface.
     *
     * @param flat whether it is flat
     */
    record Finish(boolean flat) {
    }

    /** As JSpecify's: the generator goes by the simple name. */
    @Target({ElementType.FIELD, ElementType.TYPE_USE})
    @Retention(RetentionPolicy.RUNTIME)
    @interface Nullable {
    }
}
