package dev.watchkeeper.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * How server-side apply merges a list field ({@code x-kubernetes-list-type}, and {@code x-kubernetes-list-map-keys}
 * for a map list): without it a list is atomic, replaced whole by each field manager.
 *
 * <pre>{@code
 * @ListType(value = ListType.Kind.MAP, keys = "name")
 * private List<Port> ports;
 * }</pre>
 */
@Target(ElementType.FIELD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface ListType {

    Kind value();

    /** The fields that identify an item of a {@link Kind#MAP} list; each must be required or have a default. */
    String[] keys() default {};

    /** The list types of Kubernetes' structural schemas. */
    enum Kind {
        /** Replaced whole. */
        ATOMIC,
        /** Scalar items, each owned on its own, no duplicates. */
        SET,
        /** Object items identified by {@link #keys}, each owned on its own. */
        MAP
    }
}
