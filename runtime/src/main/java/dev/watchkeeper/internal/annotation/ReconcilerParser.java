package dev.watchkeeper.internal.annotation;

import dev.watchkeeper.internal.resource.ResourceTypes;
import dev.watchkeeper.annotation.Cleanup;
import dev.watchkeeper.annotation.Reconciler;
import dev.watchkeeper.reconcile.ReconcileContext;
import dev.watchkeeper.reconcile.ReconcileResult;
import dev.watchkeeper.internal.registry.WatcherSpec;
import dev.watchkeeper.internal.watch.WatchScope;
import io.kubernetes.client.common.KubernetesObject;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.springframework.format.datetime.standard.DurationFormatterUtils;

/**
 * The one parser of {@link Reconciler @Reconciler} (and of the {@link Cleanup @Cleanup} methods that go with a
 * finalizer): checks each method's signature and resolves its attributes (placeholders through the given resolver,
 * the resource types, the watchers' scopes). {@link ParsedReconcilers} calls it once per bean, so the watcher
 * registrar (before any bean exists) and the post-processor share one result, and a wrong method fails start-up
 * with one message.
 *
 * <pre>{@code
 * List<ParsedReconciler> reconcilers = ReconcilerParser.parse(MirrorConfig.class, "mirrorConfig",
 *         environment::resolvePlaceholders, NamespaceOverrides.none());
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
     * @param resolver   resolves {@code ${…}} placeholders in attributes (an unresolved one is an error)
     * @param overrides  decides each reconciler's namespaces, given its annotation's
     * @throws IllegalStateException naming bean, method and what is wrong
     */
    public static List<ParsedReconciler> parse(Class<?> type, String beanName, UnaryOperator<String> resolver,
            NamespaceOverrides overrides) {
        Map<Method, Reconciler> reconcilers = AnnotatedMethods.find(type, Reconciler.class);
        Map<Method, ParsedReconciler.Finalization> finalizations = finalizations(beanName, reconcilers,
                AnnotatedMethods.find(type, Cleanup.class), resolver);
        List<ParsedReconciler> parsed = new ArrayList<>();
        for (Map.Entry<Method, Reconciler> entry : reconcilers.entrySet()) {
            parsed.add(parse(beanName, entry.getKey(), entry.getValue(), resolver, overrides,
                    finalizations.get(entry.getKey())));
        }
        return parsed;
    }

    private static ParsedReconciler parse(String beanName, Method method, Reconciler annotation,
            UnaryOperator<String> resolver, NamespaceOverrides overrides,
            ParsedReconciler.Finalization finalization) {
        Class<? extends KubernetesObject> primaryType = primaryType(beanName, method);
        try {
            String name = name(beanName, method, annotation, resolver);
            List<String> namespaces = List.copyOf(overrides.namespaces(name, () -> namespaces(annotation, resolver)));
            String namespace = namespaces.size() == 1 ? namespaces.get(0) : null;
            namespaces = namespaces.size() > 1 ? namespaces : List.of();
            String labelSelector = joinSelectors(AnnotatedMethods.resolve(resolver, annotation.labelSelector()),
                    AnnotatedMethods.resolve(resolver, SHARD_SELECTOR));
            WatcherSpec<?> primary = WatcherSpec.of(
                    ResourceTypes.resolve(primaryType, AnnotatedMethods.resolve(resolver, annotation.group()),
                            AnnotatedMethods.resolve(resolver, annotation.version()),
                            AnnotatedMethods.resolve(resolver, annotation.plural()), annotation.namespaced()),
                    new WatchScope(namespace, labelSelector,
                            AnnotatedMethods.resolve(resolver, annotation.fieldSelector())));
            return new ParsedReconciler(beanName, method, annotation, name, primaryType,
                    method.getParameterCount() == 2, primary, secondaries(annotation.owns(), namespace),
                    secondaries(annotation.ownsWhenServed(), namespace), secondaries(annotation.watches(), namespace),
                    duration("debounce", AnnotatedMethods.resolve(resolver, annotation.debounce())),
                    duration("timeout", AnnotatedMethods.resolve(resolver, annotation.timeout())), namespaces,
                    finalization);
        } catch (IllegalArgumentException e) {
            throw AnnotatedMethods.invalid(Reconciler.class, beanName, method, e.getMessage());
        }
    }

    /** The {@code attribute}'s {@code 500ms}, {@code 2s} or {@code PT2S}; {@code null} when empty. */
    private static Duration duration(String attribute, String value) {
        if (value.isEmpty()) {
            return null;
        }
        Duration duration;
        try {
            duration = DurationFormatterUtils.detectAndParse(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(attribute + " '" + value
                    + "' is not a duration such as 500ms, 2s or PT2S");
        }
        if (duration.isNegative()) {
            throw new IllegalArgumentException(attribute + " must not be negative, was " + value);
        }
        return duration;
    }

    /**
     * The annotation's {@code namespaces} (entries split at commas) or its {@code namespace}: none = all, one, or a
     * set.
     */
    private static List<String> namespaces(Reconciler annotation, UnaryOperator<String> resolver) {
        String namespace = AnnotatedMethods.resolve(resolver, annotation.namespace());
        Set<String> namespaces = new LinkedHashSet<>();
        for (String entry : annotation.namespaces()) {
            for (String part : AnnotatedMethods.resolve(resolver, entry).split(",")) {
                if (part.isBlank()) {
                    throw new IllegalArgumentException("namespaces " + Arrays.toString(annotation.namespaces())
                            + " has an empty entry");
                }
                if (!namespaces.add(part.trim())) {
                    throw new IllegalArgumentException("namespaces lists '" + part.trim() + "' twice");
                }
            }
        }
        if (!namespaces.isEmpty() && !namespace.isEmpty()) {
            throw new IllegalArgumentException("set either namespace or namespaces, not both");
        }
        return namespace.isEmpty() ? List.copyOf(namespaces) : List.of(namespace);
    }

    /** The reconciler's name: {@code name}, else {@code <beanName>-<methodName>}. */
    private static String name(String beanName, Method method, Reconciler annotation,
            UnaryOperator<String> resolver) {
        String name = AnnotatedMethods.resolve(resolver, annotation.name());
        return name.isEmpty() ? beanName + "-" + method.getName() : name;
    }

    /**
     * Pairs each reconciler that declares a finalizer with its {@code @Cleanup} method: exactly one each, and no
     * {@code @Cleanup} method without such a reconciler.
     */
    private static Map<Method, ParsedReconciler.Finalization> finalizations(String beanName,
            Map<Method, Reconciler> reconcilers, Map<Method, Cleanup> cleanups, UnaryOperator<String> resolver) {
        Map<String, Method> withFinalizer = new LinkedHashMap<>();
        Map<Method, String> finalizers = new HashMap<>();
        for (Map.Entry<Method, Reconciler> entry : reconcilers.entrySet()) {
            Method method = entry.getKey();
            try {
                String finalizer = AnnotatedMethods.resolve(resolver, entry.getValue().finalizer());
                if (!finalizer.isEmpty()) {
                    withFinalizer.put(name(beanName, method, entry.getValue(), resolver), method);
                    finalizers.put(method, finalizer);
                }
            } catch (IllegalArgumentException e) {
                throw AnnotatedMethods.invalid(Reconciler.class, beanName, method, e.getMessage());
            }
        }
        Map<Method, ParsedReconciler.Finalization> found = new HashMap<>();
        for (Map.Entry<Method, Cleanup> entry : cleanups.entrySet()) {
            Method cleanup = entry.getKey();
            Method reconciler = cleanupTarget(beanName, cleanup, entry.getValue(), withFinalizer, resolver);
            ParsedReconciler.Finalization other = found.get(reconciler);
            if (other != null) {
                throw AnnotatedMethods.invalid(Cleanup.class, beanName, cleanup, "the reconciler "
                        + AnnotatedMethods.describe(beanName, reconciler) + " already has the @Cleanup method "
                        + other.method().getName());
            }
            found.put(reconciler, new ParsedReconciler.Finalization(finalizers.get(reconciler), cleanup,
                    cleanupTakesContext(beanName, cleanup, primaryType(beanName, reconciler))));
        }
        for (Method reconciler : withFinalizer.values()) {
            if (!found.containsKey(reconciler)) {
                throw AnnotatedMethods.invalid(Reconciler.class, beanName, reconciler, "it declares the finalizer "
                        + finalizers.get(reconciler) + " but the bean has no @Cleanup method to run before removing it");
            }
        }
        return found;
    }

    /** The reconciler method a {@code @Cleanup} method belongs to. */
    private static Method cleanupTarget(String beanName, Method cleanup, Cleanup annotation,
            Map<String, Method> withFinalizer, UnaryOperator<String> resolver) {
        String wanted;
        try {
            wanted = AnnotatedMethods.resolve(resolver, annotation.value());
        } catch (IllegalArgumentException e) {
            throw AnnotatedMethods.invalid(Cleanup.class, beanName, cleanup, e.getMessage());
        }
        if (!wanted.isEmpty() && withFinalizer.containsKey(wanted)) {
            return withFinalizer.get(wanted);
        }
        if (wanted.isEmpty() && withFinalizer.size() == 1) {
            return withFinalizer.values().iterator().next();
        }
        String problem = withFinalizer.isEmpty() ? "the bean has no @Reconciler method with a finalizer"
                : wanted.isEmpty() ? "the bean has several @Reconciler methods with a finalizer, "
                        + withFinalizer.keySet() + "; name one in @Cleanup"
                : "the bean has no @Reconciler named '" + wanted + "' with a finalizer; those with one: "
                        + withFinalizer.keySet();
        throw AnnotatedMethods.invalid(Cleanup.class, beanName, cleanup, problem);
    }

    /** Checks a {@code @Cleanup} signature against the reconciler's primary type; whether it takes a context. */
    private static boolean cleanupTakesContext(String beanName, Method cleanup, Class<?> primaryType) {
        Class<?>[] parameters = cleanup.getParameterTypes();
        if (parameters.length < 1 || parameters.length > 2 || !parameters[0].isAssignableFrom(primaryType)
                || (parameters.length == 2 && parameters[1] != ReconcileContext.class)) {
            throw AnnotatedMethods.invalid(Cleanup.class, beanName, cleanup, "it must take the primary object ("
                    + primaryType.getSimpleName() + ") and optionally a ReconcileContext");
        }
        if (cleanup.getReturnType() != void.class) {
            throw AnnotatedMethods.invalid(Cleanup.class, beanName, cleanup,
                    "it must return void, but returns " + cleanup.getReturnType().getName());
        }
        return parameters.length == 2;
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

    /** Secondary watchers: in the primary's namespace (or each of its set), without selectors. */
    private static List<WatcherSpec<?>> secondaries(Class<? extends KubernetesObject>[] types,
            String namespace) {
        List<WatcherSpec<?>> declarations = new ArrayList<>();
        for (Class<? extends KubernetesObject> type : types) {
            declarations.add(WatcherSpec.of(ResourceTypes.resolve(type), WatchScope.namespace(namespace)));
        }
        return declarations;
    }
}
