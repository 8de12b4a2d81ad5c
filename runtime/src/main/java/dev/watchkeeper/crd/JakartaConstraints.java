package dev.watchkeeper.crd;

import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Negative;
import jakarta.validation.constraints.NegativeOrZero;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.PositiveOrZero;
import jakarta.validation.constraints.Size;
import java.lang.reflect.AnnotatedElement;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** {@link Constraints} once the Bean Validation API is known to be there: only loaded then. */
final class JakartaConstraints {

    /** A blank string has no character but whitespace: a match of this anywhere makes it not blank. */
    private static final String NOT_BLANK = "\\S";

    private JakartaConstraints() {
    }

    static boolean required(AnnotatedElement element) {
        return element.getAnnotationsByType(NotNull.class).length > 0
                || element.getAnnotationsByType(NotEmpty.class).length > 0
                || element.getAnnotationsByType(NotBlank.class).length > 0;
    }

    /** Several constraints on one value (say, of different groups) all hold: the strictest bound is kept. */
    static void apply(AnnotatedElement element, Map<String, Object> schema, String where) {
        Bound lower = null;
        Bound upper = null;
        for (Min min : element.getAnnotationsByType(Min.class)) {
            lower = Bound.stricterLower(lower, new Bound(BigDecimal.valueOf(min.value()), false));
        }
        for (DecimalMin min : element.getAnnotationsByType(DecimalMin.class)) {
            lower = Bound.stricterLower(lower, new Bound(decimal(min.value(), where), !min.inclusive()));
        }
        if (element.getAnnotationsByType(Positive.class).length > 0) {
            lower = Bound.stricterLower(lower, new Bound(BigDecimal.ZERO, true));
        }
        if (element.getAnnotationsByType(PositiveOrZero.class).length > 0) {
            lower = Bound.stricterLower(lower, new Bound(BigDecimal.ZERO, false));
        }
        for (Max max : element.getAnnotationsByType(Max.class)) {
            upper = Bound.stricterUpper(upper, new Bound(BigDecimal.valueOf(max.value()), false));
        }
        for (DecimalMax max : element.getAnnotationsByType(DecimalMax.class)) {
            upper = Bound.stricterUpper(upper, new Bound(decimal(max.value(), where), !max.inclusive()));
        }
        if (element.getAnnotationsByType(Negative.class).length > 0) {
            upper = Bound.stricterUpper(upper, new Bound(BigDecimal.ZERO, true));
        }
        if (element.getAnnotationsByType(NegativeOrZero.class).length > 0) {
            upper = Bound.stricterUpper(upper, new Bound(BigDecimal.ZERO, false));
        }
        if (lower != null) {
            lower.write(schema, "minimum", "exclusiveMinimum", where);
        }
        if (upper != null) {
            upper.write(schema, "maximum", "exclusiveMaximum", where);
        }
        for (Size size : element.getAnnotationsByType(Size.class)) {
            String bound = counted(schema, "@Size", where);
            if (size.min() > 0) {
                schema.merge("min" + bound, size.min(), (a, b) -> Math.max((int) a, (int) b));
            }
            if (size.max() < Integer.MAX_VALUE) {
                schema.merge("max" + bound, size.max(), (a, b) -> Math.min((int) a, (int) b));
            }
        }
        if (element.getAnnotationsByType(NotEmpty.class).length > 0) {
            schema.merge("min" + counted(schema, "@NotEmpty", where), 1, (a, b) -> Math.max((int) a, (int) b));
        }
        List<String> patterns = new ArrayList<>();
        for (Pattern pattern : element.getAnnotationsByType(Pattern.class)) {
            patterns.add(pattern.regexp());
        }
        if (element.getAnnotationsByType(NotBlank.class).length > 0) {
            if (!"string".equals(schema.get("type"))) {
                throw new IllegalArgumentException("@NotBlank on " + where + ", which is no string");
            }
            patterns.add(NOT_BLANK);
        }
        if (patterns.size() == 1) {
            schema.put("pattern", patterns.get(0));
        } else if (patterns.size() > 1) {
            List<Map<String, Object>> all = new ArrayList<>();
            for (String pattern : patterns) {
                all.add(Map.of("pattern", pattern));
            }
            schema.put("allOf", all);
        }
    }

    /** What a size constraint counts in the schema's type: a string's length, a list's items, a map's entries. */
    private static String counted(Map<String, Object> schema, String constraint, String where) {
        return switch (String.valueOf(schema.get("type"))) {
            case "string" -> "Length";
            case "array" -> "Items";
            case "object" -> "Properties";
            default -> throw new IllegalArgumentException(
                    constraint + " on " + where + ", which is no string, list or map");
        };
    }

    private static BigDecimal decimal(String value, String where) {
        try {
            return new BigDecimal(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("a decimal bound on " + where + " is no number: " + value, e);
        }
    }

    /** One end of a number's range; exclusive when the end itself is out. */
    private record Bound(BigDecimal value, boolean exclusive) {

        static Bound stricterLower(Bound kept, Bound next) {
            if (kept == null) {
                return next;
            }
            int order = next.value.compareTo(kept.value);
            return order > 0 || order == 0 && next.exclusive ? next : kept;
        }

        static Bound stricterUpper(Bound kept, Bound next) {
            if (kept == null) {
                return next;
            }
            int order = next.value.compareTo(kept.value);
            return order < 0 || order == 0 && next.exclusive ? next : kept;
        }

        void write(Map<String, Object> schema, String key, String exclusiveKey, String where) {
            Object type = schema.get("type");
            if (!"integer".equals(type) && !"number".equals(type)) {
                throw new IllegalArgumentException("a number's bound on " + where + ", which is no number");
            }
            // integral bounds as longs, as YAML and JSON write them
            schema.put(key, value.stripTrailingZeros().scale() <= 0 ? (Object) value.longValueExact()
                    : (Object) value.doubleValue());
            if (exclusive) {
                schema.put(exclusiveKey, true);
            }
        }
    }
}
