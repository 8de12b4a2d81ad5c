package dev.watchkeeper.crd;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** {@link Constraints} once the Bean Validation API is known to be there: only loaded then. */
final class JakartaConstraints {

    private JakartaConstraints() {
    }

    static boolean required(Field field) {
        return field.getAnnotationsByType(NotNull.class).length > 0;
    }

    /** Several constraints of one kind (say, of different groups) all hold: the strictest bound is kept. */
    static void apply(Field field, Map<String, Object> schema) {
        for (Min min : field.getAnnotationsByType(Min.class)) {
            schema.merge("minimum", min.value(), (a, b) -> Math.max((long) a, (long) b));
        }
        for (Max max : field.getAnnotationsByType(Max.class)) {
            schema.merge("maximum", max.value(), (a, b) -> Math.min((long) a, (long) b));
        }
        for (Size size : field.getAnnotationsByType(Size.class)) {
            String bound = switch (String.valueOf(schema.get("type"))) {
                case "string" -> "Length";
                case "array" -> "Items";
                case "object" -> "Properties";
                default -> throw new IllegalArgumentException("@Size on " + field + ", which is no string, list or map");
            };
            if (size.min() > 0) {
                schema.merge("min" + bound, size.min(), (a, b) -> Math.max((int) a, (int) b));
            }
            if (size.max() < Integer.MAX_VALUE) {
                schema.merge("max" + bound, size.max(), (a, b) -> Math.min((int) a, (int) b));
            }
        }
        Pattern[] patterns = field.getAnnotationsByType(Pattern.class);
        if (patterns.length == 1) {
            schema.put("pattern", patterns[0].regexp());
        } else if (patterns.length > 1) {
            List<Map<String, Object>> all = new ArrayList<>();
            for (Pattern pattern : patterns) {
                all.add(Map.of("pattern", pattern.regexp()));
            }
            schema.put("allOf", all);
        }
    }
}
