package dev.watchkeeper.crd;

import dev.watchkeeper.annotation.Default;
import dev.watchkeeper.annotation.KubernetesResource;
import dev.watchkeeper.annotation.PreserveUnknownFields;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Negative;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.PositiveOrZero;
import jakarta.validation.constraints.Size;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.List;
import java.util.Map;

/**
 * A part that turns. Its Javadoc is kept by the
 * {@code watchkeeper-crd-processor} at compile time.
 *
 * @see CustomResourceDefinitionsTest
 */
@KubernetesResource(group = "test.watchkeeper.dev", version = "v1", plural = "sprockets")
class Sprocket implements KubernetesObject {

    String apiVersion;
    String kind;
    V1ObjectMeta metadata;
    /** What the sprocket should be. */
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

    /** The desired state of a {@link Sprocket}. */
    static class Spec {

        /**
         * How many teeth it has,
         * counted at the rim.
         */
        @Positive
        @Default("12")
        int teeth;

        /** A name with a <b>visible</b> character. */
        @NotBlank
        @Default("plain")
        String name;

        @PositiveOrZero
        @Max(100)
        @Min(5)
        @Min(3)
        Integer wear;

        @DecimalMin(value = "0.5", inclusive = false)
        @DecimalMax("2.5")
        double ratio;

        @Negative
        long offset;

        @NotEmpty
        @Default("[\"steel\"]")
        List<@Size(min = 2, max = 10) @NotBlank String> materials;

        Map<String, @Positive Integer> counts;

        @Nullable
        String note;

        List<@Nullable String> aliases;

        @Default("{\"flat\": true, \"depth\": 2}")
        Finish finish;

        @PreserveUnknownFields
        Finish extension;

        Hub hub;

        Shape shape = Shape.ROUND;

        @Default("SQUARE")
        Shape fallback;
    }

    /**
     * The surface.
     *
     * @param flat  whether it is flat
     * @param depth how deep the grooves are, in
     *              micrometres
     */
    record Finish(boolean flat, int depth) {
    }

    /** Keeps what others write. */
    @PreserveUnknownFields
    static class Hub {

        /** Across, in millimetres. */
        int diameter;
    }

    enum Shape {
        ROUND, SQUARE
    }

    /** Named as JSpecify's: the generator goes by the simple name. */
    @Target({ElementType.FIELD, ElementType.TYPE_USE})
    @Retention(RetentionPolicy.RUNTIME)
    @interface Nullable {
    }
}
