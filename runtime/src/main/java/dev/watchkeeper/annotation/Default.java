package dev.watchkeeper.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The value the API server writes into a field an object leaves out ({@code default} in the CRD's schema). For a
 * string or enum field the value is the string itself; for any other field it is JSON: {@code @Default("3")},
 * {@code @Default("true")}, {@code @Default("[\"a\"]")}, {@code @Default("{}")}.
 *
 * <pre>{@code
 * @Default("1")
 * private Integer replicas;
 * }</pre>
 */
@Target(ElementType.FIELD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface Default {

    String value();
}
