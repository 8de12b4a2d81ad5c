package dev.watchkeeper.annotation;

import dev.watchkeeper.internal.reconcile.ReconcilerSettings;
import dev.watchkeeper.reconcile.Trigger;
import io.kubernetes.client.common.KubernetesObject;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a bean method as the reconcile function of a reconciler. The method's first parameter is the primary
 * resource type; an optional second parameter is the {@link dev.watchkeeper.reconcile.ReconcileContext}; it
 * returns {@code void} (done) or a {@link dev.watchkeeper.reconcile.ReconcileResult}.
 *
 * <pre>{@code
 * @Component
 * class ConfigMapGenerators {
 *     @Reconciler(namespace = "${app.namespace}", owns = V1ConfigMap.class, triggerOn = Trigger.GENERATION)
 *     ReconcileResult reconcile(ConfigMapGenerator generator, ReconcileContext context) {
 *         ...
 *         return ReconcileResult.done();
 *     }
 * }
 * }</pre>
 *
 * <p>String attributes may hold {@code ${...}} placeholders, resolved through the application's
 * {@code Environment}. Found by the starter on singleton beans.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface Reconciler {

    /**
     * The reconciler's name in logs, state, metrics and properties ({@code watchkeeper.reconcilers.<name>.*}).
     * Default {@code <beanName>-<methodName>}: stable as long as the bean and method keep their names, and unique
     * even with several reconcilers of one resource.
     */
    String name() default "";

    /** The namespace to watch; empty = all namespaces (and cluster-scoped resources). */
    String namespace() default "";

    /**
     * Several namespaces to watch instead of {@link #namespace()}: one watcher per namespace for the primary and for
     * each secondary, each with its own backoff and state, read together. An entry may hold a comma-separated list
     * ({@code "${app.namespaces}"}). The property {@code watchkeeper.reconcilers.<name>.namespaces} replaces both
     * attributes.
     */
    String[] namespaces() default {};

    /** A label selector for the primary resource. */
    String labelSelector() default "";

    /** A field selector for the primary resource. */
    String fieldSelector() default "";

    /** Secondary types whose objects name their primary in a controller ownerReference; watched in the same namespaces. */
    Class<? extends KubernetesObject>[] owns() default {};

    /**
     * Owned types that the server may not serve yet, such as another operator's custom resource: their watchers wait
     * for the type (retrying with the watcher's backoff) without holding up the reconciler or readiness, and a
     * dependent of such a type is inactive until it is served. Their CRDs are never installed at start-up.
     */
    Class<? extends KubernetesObject>[] ownsWhenServed() default {};

    /**
     * Other secondary types, each mapped to primary keys by a {@code SecondaryMapper<S>} bean: the one bean whose
     * generic type is {@code S}, chosen among the beans named in {@link #mapper()} when it is set.
     */
    Class<? extends KubernetesObject>[] watches() default {};

    /** Names of {@code SecondaryMapper} beans for {@link #watches()}; empty = find them by generic type. */
    String[] mapper() default {};

    /** The most reconciles at once; properties may override it. */
    int concurrency() default ReconcilerSettings.DEFAULT_CONCURRENCY;

    /**
     * How long a key changed by a watch event waits before it is reconciled, counted from the first event of a burst,
     * so a burst of changes makes one reconcile (e.g. {@code 500ms}, {@code 2s}, ISO-8601 {@code PT2S}, or a
     * {@code ${...}} placeholder). Empty = {@code watchkeeper.reconcile.debounce} (default off); the property
     * {@code watchkeeper.reconcilers.<name>.debounce} overrides it. Requeues and retries are not delayed.
     */
    String debounce() default "";

    /**
     * How long one reconcile (or cleanup) may run before its worker is interrupted and it counts as timed out, retried
     * with the backoff (e.g. {@code 30s}, {@code 5m}, ISO-8601 {@code PT30S}, or a {@code ${...}} placeholder). Empty =
     * {@code watchkeeper.reconcile.timeout} (default none); the property {@code watchkeeper.reconcilers.<name>.timeout}
     * overrides it; {@code 0s} = none.
     */
    String timeout() default "";

    /** Which primary changes start a reconcile; several = any of them. */
    Trigger[] triggerOn() default Trigger.ALL;

    /** The name of a {@code TriggerFilter} bean, combined with {@link #triggerOn()} by "either". */
    String filter() default "";

    /**
     * A finalizer (a qualified name such as {@code example.com/cleanup}) the reconciler adds to every object before
     * its first reconcile; once an object is being deleted, the bean's {@link Cleanup @Cleanup} method runs instead
     * of the reconcile, and the finalizer is removed when it succeeds. Empty = none.
     */
    String finalizer() default "";

    /** API group of a custom primary resource (empty = core); see also {@link KubernetesResource}. */
    String group() default "";

    /** API version of a custom primary resource. */
    String version() default "";

    /** Plural of a custom primary resource (or of a built-in one, to skip discovery). */
    String plural() default "";

    /** Whether the custom primary resource is namespaced. */
    boolean namespaced() default true;
}
