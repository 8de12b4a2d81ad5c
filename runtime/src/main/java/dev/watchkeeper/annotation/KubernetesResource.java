package dev.watchkeeper.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares the API resource of a custom {@code KubernetesObject} class, so {@link Reconciler @Reconciler}, {@code owns}
 * and {@code watches} can use the class without repeating group, version and plural; also what
 * {@code CustomResourceDefinitions} generates the class's CRD from.
 *
 * <pre>{@code
 * @KubernetesResource(group = "samples.watchkeeper.dev", version = "v1", plural = "configmapgenerators")
 * public class ConfigMapGenerator implements KubernetesObject { ... }
 * }</pre>
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface KubernetesResource {

    /** API group; empty = core. */
    String group();

    String version();

    String plural();

    boolean namespaced() default true;

    /** The kind, for the generated CRD; empty = the class's simple name. */
    String kind() default "";

    /** Short names for {@code kubectl}, for the generated CRD. */
    String[] shortNames() default {};
}
