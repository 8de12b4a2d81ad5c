package dev.watchkeeper.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks the bean method that cleans up after a deleted object of a {@link Reconciler#finalizer() finalizer}
 * reconciler of the same bean: it runs once the object is being deleted, and when it returns the finalizer is
 * removed so Kubernetes can delete the object. It takes the primary object and optionally a
 * {@link dev.watchkeeper.reconcile.ReconcileContext}, and returns {@code void}; a throw leaves the finalizer and
 * retries with the object's backoff, so it must be safe to run again.
 *
 * <pre>{@code
 * @Reconciler(finalizer = "example.com/bucket")
 * void reconcile(Bucket bucket, ReconcileContext context) { ... }
 *
 * @Cleanup
 * void deleteBucket(Bucket bucket) { storage.delete(bucket.getSpec().getName()); }
 * }</pre>
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface Cleanup {

    /** The name of the reconciler it cleans up for; empty = the bean's one reconciler that has a finalizer. */
    String value() default "";
}
