package dev.watchkeeper.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Gives a custom resource the {@code scale} subresource, so {@code kubectl scale} and a HorizontalPodAutoscaler can
 * drive it.
 *
 * <pre>{@code
 * @ScaleSubresource(specReplicasPath = ".spec.replicas", statusReplicasPath = ".status.replicas")
 * }</pre>
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface ScaleSubresource {

    /** Where the desired replicas are, e.g. {@code .spec.replicas}. */
    String specReplicasPath();

    /** Where the observed replicas are, e.g. {@code .status.replicas}. */
    String statusReplicasPath();

    /** Where the status holds the pods' label selector as a string; empty = none (no autoscaling by pods). */
    String labelSelectorPath() default "";
}
