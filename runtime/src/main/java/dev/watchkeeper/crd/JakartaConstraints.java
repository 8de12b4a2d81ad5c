package dev.watchkeeper.crd;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.lang.reflect.Field;
import java.util.Map;

/** {@link Constraints} once the Bean Validation API is known to be there: only loaded then. */
final class JakartaConstraints {

    private JakartaConstraints() {
    }

    static boolean required(Field field) {
        return field.getAnnotationsByType(NotNull.class).length > 0;
    }

    static void apply(Field field, Map<String, Object> schema) {
        for (Min min : field.getAnnotationsByType(Min.class)) {
            schema.put("minimum", min.value());
        }
        for (Max max : field.getAnnotationsByType(Max.class)) {
            schema.put("maximum", max.value());
        }
        for (Size size : field.getAnnotationsByType(Size.class)) {
            String bound = switch (String.valueOf(schema.get("type"))) {
                case "string" -> "Length";
                case "array" -> "Items";
                case "object" -> "Properties";
                default -> throw new IllegalArgumentException("@Size on " + field + ", which is no string, list or map");
            };
            if (size.min() > 0) {
                schema.put("min" + bound, size.min());
            }
            if (size.max() < Integer.MAX_VALUE) {
                schema.put("max" + bound, size.max());
            }
        }
        for (Pattern pattern : field.getAnnotationsByType(Pattern.class)) {
            schema.put("pattern", pattern.regexp());
        }
    }
}
