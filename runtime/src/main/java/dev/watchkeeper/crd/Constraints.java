package dev.watchkeeper.crd;

import java.lang.reflect.Field;
import java.util.Map;

/**
 * The Jakarta Bean Validation constraints of a field that have a schema equivalent, when the API is on the class
 * path (it is an optional dependency): {@code @NotNull} makes the field required, {@code @Min}/{@code @Max} bound a
 * number, {@code @Size} a string's length, a list's items or a map's entries, {@code @Pattern} a string. Groups and
 * payloads are not read: the API server checks every write.
 */
final class Constraints {

    private static final boolean PRESENT = present();

    private Constraints() {
    }

    static boolean required(Field field) {
        return PRESENT && JakartaConstraints.required(field);
    }

    static void apply(Field field, Map<String, Object> schema) {
        if (PRESENT) {
            JakartaConstraints.apply(field, schema);
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
