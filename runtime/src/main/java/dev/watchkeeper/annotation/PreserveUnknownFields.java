package dev.watchkeeper.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The object keeps the fields its schema does not list ({@code x-kubernetes-preserve-unknown-fields}) instead of the
 * API server pruning them: for an embedded object whose known fields are typed but whose other fields belong to
 * someone else. On a field, its object; on a class, every object of the class. Fields typed {@code Object},
 * {@code JsonObject} or {@code Map<String, Object>} keep unknown fields without it.
 */
@Target({ElementType.FIELD, ElementType.TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface PreserveUnknownFields {
}
