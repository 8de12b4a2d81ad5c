package dev.watchkeeper.crd;

import java.lang.reflect.AnnotatedElement;
import java.util.Map;

/**
 * The Jakarta Bean Validation constraints that have a schema equivalent, when the API is on the class path (it is an
 * optional dependency): {@code @NotNull}, {@code @NotEmpty} and {@code @NotBlank} make a field required,
 * {@code @NotEmpty} and {@code @NotBlank} also refuse an empty or blank value; {@code @Min}, {@code @Max},
 * {@code @DecimalMin}, {@code @DecimalMax}, {@code @Positive}, {@code @PositiveOrZero}, {@code @Negative} and
 * {@code @NegativeOrZero} bound a number; {@code @Size} bounds a string's length, a list's items or a map's entries;
 * {@code @Pattern} a string. On a field they hold for its value; on a list's element type or a map's value type
 * ({@code List<@Size(max = 63) String>}) for each item. Groups and payloads are not read: the API server checks every
 * write.
 */
final class Constraints {

    private static final boolean PRESENT = present();

    private Constraints() {
    }

    static boolean required(AnnotatedElement element) {
        return PRESENT && JakartaConstraints.required(element);
    }

    static void apply(AnnotatedElement element, Map<String, Object> schema, String where) {
        if (PRESENT) {
            JakartaConstraints.apply(element, schema, where);
        }
    }

    private static boolean present() {
        try {
            Class.forName("jakarta.validation.constraints.NotNull", false, Constraints.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException absent) {
            return false;
        }
    }
}
