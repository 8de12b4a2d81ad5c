package dev.watchkeeper.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A column {@code kubectl get} shows for a custom resource: one entry of its CRD's
 * {@code additionalPrinterColumns}, in the order declared.
 *
 * <pre>{@code
 * @PrinterColumn(name = "Replicas", type = "integer", jsonPath = ".spec.replicas")
 * @PrinterColumn(name = "Age", type = "date", jsonPath = ".metadata.creationTimestamp")
 * }</pre>
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Repeatable(PrinterColumn.List.class)
public @interface PrinterColumn {

    /** The column's header. */
    String name();

    /** A JSONPath into the object, e.g. {@code .status.conditions[?(@.type=="Ready")].status}. */
    String jsonPath();

    /** {@code string}, {@code integer}, {@code number}, {@code boolean} or {@code date}. */
    String type() default "string";

    /** Shown by {@code kubectl explain}; empty = none. */
    String description() default "";

    /** 0 = shown always; higher = only with {@code -o wide}. */
    int priority() default 0;

    /** The container of repeated {@link PrinterColumn}s. */
    @Target(ElementType.TYPE)
    @Retention(RetentionPolicy.RUNTIME)
    @Documented
    @interface List {

        PrinterColumn[] value();
    }
}
