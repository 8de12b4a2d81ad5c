package dev.watchkeeper.webhook;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks the {@code @KubernetesResource} class of the version the API server stores (the hub) of a custom resource
 * with more than one version, and names the classes of the others, each a {@link Convertible} of this class with the
 * same group, plural and kind. The generated CRD then serves every version, stores this one, and converts through
 * the application's conversion webhook; the reconcilers should read this class.
 *
 * <pre>{@code
 * @KubernetesResource(group = "example.com", version = "v1", plural = "widgets")
 * @StorageVersion(otherVersions = WidgetV1alpha1.class)
 * public class Widget implements KubernetesObject { ... }
 * }</pre>
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface StorageVersion {

    /** The classes of the other served versions, in the order the CRD lists them after this one. */
    Class<? extends Convertible<?>>[] otherVersions();
}
