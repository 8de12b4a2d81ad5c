package dev.watchkeeper.autoconfigure;

import dev.watchkeeper.annotation.Cleanup;
import dev.watchkeeper.annotation.Reconciler;
import dev.watchkeeper.annotation.WatchListener;
import dev.watchkeeper.internal.annotation.InvalidAnnotatedMethodException;
import java.lang.annotation.Annotation;
import java.util.Map;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Turns an {@link InvalidAnnotatedMethodException} into Boot's "APPLICATION FAILED TO START" report: the method, what
 * is wrong with it, and what the annotation accepts; no stack trace. Registered in {@code META-INF/spring.factories}.
 *
 * <pre>
 * Watchkeeper cannot use this @Reconciler method:
 *
 *     Bean: generatorReconciler
 *     Method: GeneratorReconciler.reconcile(String)
 *     Problem: its first parameter must be the primary resource, a KubernetesObject such as V1ConfigMap, …
 * </pre>
 */
class AnnotatedMethodFailureAnalyzer extends AbstractFailureAnalyzer<InvalidAnnotatedMethodException> {

    private static final Map<Class<? extends Annotation>, String> ACCEPTED = Map.of(
            Reconciler.class, "A @Reconciler method takes the primary object (a KubernetesObject such as V1ConfigMap)"
                    + " and optionally a ReconcileContext, and returns void or ReconcileResult; with a finalizer, its"
                    + " bean has a @Cleanup method for it.",
            Cleanup.class, "A @Cleanup method takes the primary object and optionally a ReconcileContext, returns"
                    + " void, and sits in the bean of the @Reconciler method with a finalizer it cleans up for (named"
                    + " in @Cleanup when the bean has several).",
            WatchListener.class, "A @WatchListener method names a watcher and takes one parameter: a WatchEvent, one"
                    + " of its records, or the watched object type.");

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, InvalidAnnotatedMethodException cause) {
        String annotation = "@" + cause.annotation().getSimpleName();
        String description = "Watchkeeper cannot use this " + annotation + " method:\n\n"
                + "    Bean: " + cause.beanName() + "\n"
                + "    Method: " + cause.method() + "\n"
                + "    Problem: " + cause.problem();
        return new FailureAnalysis(description, "Change the method so that it fits. "
                + ACCEPTED.getOrDefault(cause.annotation(), ""), cause);
    }
}
