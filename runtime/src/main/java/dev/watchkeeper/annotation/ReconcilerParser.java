package dev.watchkeeper.annotation;

import dev.watchkeeper.reconcile.ReconcileContext;
import dev.watchkeeper.reconcile.ReconcileResult;
import dev.watchkeeper.registry.WatcherDeclaration;
import dev.watchkeeper.watch.WatchScope;
import io.kubernetes.client.common.KubernetesObject;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.springframework.format.datetime.standard.DurationFormatterUtils;

/**
 * The one parser of {@link Reconciler @Reconciler}: checks each method's signature and resolves its attributes
 * (placeholders through the given resolver, the resource types, the watchers' scopes). The watcher registrar calls
 * it with the bean's class before any bean exists, the post-processor with the bean's target class: both get the
 * same declarations, and both fail start-up with the same message for a wrong method.
 *
 * <pre>{@code
 * List<ParsedReconciler> reconcilers = ReconcilerParser.parse(MirrorConfig.class, "mirrorConfig",
 *         environment::resolvePlaceholders);
 * }</pre>
 */
public final class ReconcilerParser {

    /**
     * The deployment's shard ({@code watchkeeper.shard.label-selector}), added to every primary watcher's label
     * selector; read here, through the same resolver as the attributes, so both callers apply it alike.
     */
    static final String SHARD_SELECTOR = "${watchkeeper.shard.label-selector:}";

    private ReconcilerParser() {
    }

    /**
     * Every {@code @Reconciler} method of {@code type}, parsed.
     *
     * @param beanName the bean's name, for default names and messages
     * @param resolver resolves {@code ${…}} placeholders in attributes (an unresolved one is an error)
     * @throws IllegalStateException naming bean, method and what is wrong
     */
    public static List<ParsedReconciler> parse(Class<?> type, String beanName, UnaryOperator<String> resolver) {
        List<ParsedReconciler> parsed = new ArrayList<>();
        for (Map.Entry<Method, Reconciler> entry : AnnotatedMethods.find(type, Reconciler.class).entrySet()) {
            parsed.add(parse(beanName, entry.getKey(), entry.getValue(), resolver));
        }
        return parsed;
    }

    private static ParsedReconciler parse(String beanName, Method method, Reconciler annotation,
            UnaryOperator<String> resolver) {
        Class<? extends KubernetesObject> primaryType = primaryType(beanName, method);
        try {
            String name = AnnotatedMethods.resolve(resolver, annotation.name());
            if (name.isEmpty()) {
                name = beanName + "-" + method.getName();
            }
            String namespace = AnnotatedMethods.resolve(resolver, annotation.namespace());
            String labelSelector = joinSelectors(AnnotatedMethods.resolve(resolver, annotation.labelSelector()),
                    AnnotatedMethods.resolve(resolver, SHARD_SELECTOR));
            WatcherDeclaration<?> primary = WatcherDeclaration.of(
                    ResourceTypes.resolve(primaryType, AnnotatedMethods.resolve(resolver, annotation.group()),
                            AnnotatedMethods.resolve(resolver, annotation.version()),
                            AnnotatedMethods.resolve(resolver, annotation.plural()), annotation.namespaced()),
                    new WatchScope(namespace, labelSelector,
                            AnnotatedMethods.resolve(resolver, annotation.fieldSelector())));
            return new ParsedReconciler(beanName, method, annotation, name, primaryType,
                    method.getParameterCount() == 2, primary, secondaries(annotation.owns(), namespace),
                    secondaries(annotation.watches(), namespace),
                    debounce(AnnotatedMethods.resolve(resolver, annotation.debounce())));
        } catch (IllegalArgumentException e) {
            throw AnnotatedMethods.invalid(Reconciler.class, beanName, method, e.getMessage());
        }
    }

    /** {@code 500ms}, {@code 2s} or {@code PT2S}; {@code null} when empty. */
    private static Duration debounce(String value) {
        if (value.isEmpty()) {
            return null;
        }
        Duration debounce;
        try {
            debounce = DurationFormatterUtils.detectAndParse(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("debounce '" + value + "' is not a duration such as 500ms, 2s or PT2S");
        }
        if (debounce.isNegative()) {
            throw new IllegalArgumentException("debounce must not be negative, was " + value);
        }
        return debounce;
    }

    /** {@code a=b} and {@code shard=1} → {@code a=b,shard=1}; empty parts are left out. */
    private static String joinSelectors(String annotated, String shard) {
        if (shard.isEmpty()) {
            return annotated;
        }
        return annotated.isEmpty() ? shard : annotated + "," + shard;
    }

    /** Checks the signature; returns the primary type (the first parameter). */
    private static Class<? extends KubernetesObject> primaryType(String beanName, Method method) {
        Class<?>[] parameters = method.getParameterTypes();
        if (parameters.length < 1 || parameters.length > 2) {
            throw AnnotatedMethods.invalid(Reconciler.class, beanName, method, "it must take the primary object and"
                    + " optionally a ReconcileContext, but takes " + parameters.length + " parameters");
        }
        if (!KubernetesObject.class.isAssignableFrom(parameters[0])) {
            throw AnnotatedMethods.invalid(Reconciler.class, beanName, method, "its first parameter must be the"
                    + " primary resource, a KubernetesObject such as V1ConfigMap, but is " + parameters[0].getName());
        }
        if (parameters.length == 2 && parameters[1] != ReconcileContext.class) {
            throw AnnotatedMethods.invalid(Reconciler.class, beanName, method, "its second parameter may only be a"
                    + " ReconcileContext, but is " + parameters[1].getName());
        }
        Class<?> returns = method.getReturnType();
        if (returns != void.class && returns != Void.class && returns != ReconcileResult.class) {
            throw AnnotatedMethods.invalid(Reconciler.class, beanName, method,
                    "it must return void or ReconcileResult, but returns " + returns.getName());
        }
        @SuppressWarnings("unchecked")
        Class<? extends KubernetesObject> primary = (Class<? extends KubernetesObject>) parameters[0];
        return primary;
    }

    /** Secondary watchers: in the primary's namespace, without selectors. */
    private static List<WatcherDeclaration<?>> secondaries(Class<? extends KubernetesObject>[] types,
            String namespace) {
        List<WatcherDeclaration<?>> declarations = new ArrayList<>();
        for (Class<? extends KubernetesObject> type : types) {
            declarations.add(WatcherDeclaration.of(ResourceTypes.resolve(type), WatchScope.namespace(namespace)));
        }
        return declarations;
    }
}
