package dev.watchkeeper.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A CEL rule the API server checks on every write: one entry of {@code x-kubernetes-validations} in the generated
 * CRD, on the schema of the annotated class (where {@code self} is the object) or field (where {@code self} is the
 * field's value; {@code oldSelf} is the previous value in transition rules).
 *
 * <pre>{@code
 * @ValidationRule(value = "self.minReplicas <= self.maxReplicas", message = "minReplicas exceeds maxReplicas")
 * public static class Spec { ... }
 * }</pre>
 */
@Target({ElementType.TYPE, ElementType.FIELD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Repeatable(ValidationRule.List.class)
public @interface ValidationRule {

    /** The CEL expression, true for a valid value. */
    String value();

    /** What the server answers when the rule fails; empty = the server's own message naming the rule. */
    String message() default "";

    /** The container of repeated {@link ValidationRule}s. */
    @Target({ElementType.TYPE, ElementType.FIELD})
    @Retention(RetentionPolicy.RUNTIME)
    @Documented
    @interface List {

        ValidationRule[] value();
    }
}
