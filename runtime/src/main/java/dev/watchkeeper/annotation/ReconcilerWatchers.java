package dev.watchkeeper.annotation;

import dev.watchkeeper.registry.WatcherDeclaration;
import dev.watchkeeper.resource.ResourceType;
import dev.watchkeeper.watch.WatchScope;
import io.kubernetes.client.common.KubernetesObject;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;

/**
 * The watchers {@code @Reconciler} methods need (primary, then owned and watched secondaries), computed from the
 * class alone, before any bean exists: so a bean-definition registrar can make them beans early, with the same
 * identities (and so the same instances) the {@link ReconcilerAnnotationBeanPostProcessor} later asks the registry
 * for.
 *
 * <pre>{@code
 * List<WatcherDeclaration<?>> watchers = ReconcilerWatchers.declaredBy(MirrorConfig.class, environment::resolvePlaceholders);
 * }</pre>
 */
public final class ReconcilerWatchers {

    private ReconcilerWatchers() {
    }

    /**
     * The watcher declarations of every {@code @Reconciler} method of {@code type}; methods whose signature or
     * resource is invalid are skipped (the post-processor reports them).
     *
     * @param resolve resolves placeholders in annotation attributes
     */
    public static List<WatcherDeclaration<?>> declaredBy(Class<?> type, UnaryOperator<String> resolve) {
        if (!AnnotationUtils.isCandidateClass(type, Reconciler.class)) {
            return List.of();
        }
        Map<Method, Reconciler> methods = MethodIntrospector.selectMethods(type,
                (MethodIntrospector.MetadataLookup<Reconciler>) method ->
                        AnnotatedElementUtils.findMergedAnnotation(method, Reconciler.class));
        List<WatcherDeclaration<?>> declarations = new ArrayList<>();
        methods.forEach((method, annotation) -> {
            Class<?>[] parameters = method.getParameterTypes();
            if (parameters.length < 1 || !KubernetesObject.class.isAssignableFrom(parameters[0])) {
                return;
            }
            try {
                @SuppressWarnings("unchecked")
                Class<? extends KubernetesObject> primary = (Class<? extends KubernetesObject>) parameters[0];
                declarations.add(primary(primary, annotation, resolve));
                for (Class<? extends KubernetesObject> owned : annotation.owns()) {
                    declarations.add(secondary(owned, annotation, resolve));
                }
                for (Class<? extends KubernetesObject> watched : annotation.watches()) {
                    declarations.add(secondary(watched, annotation, resolve));
                }
            } catch (RuntimeException invalid) {
                // The post-processor fails start-up with the full message.
            }
        });
        return declarations;
    }

    /** The primary watcher of a reconciler of {@code type}. */
    static <T extends KubernetesObject> WatcherDeclaration<T> primary(Class<T> type, Reconciler annotation,
            UnaryOperator<String> resolve) {
        WatchScope scope = new WatchScope(resolve.apply(annotation.namespace()),
                resolve.apply(annotation.labelSelector()), resolve.apply(annotation.fieldSelector()));
        ResourceType<T> resourceType = ResourceTypes.resolve(type, resolve.apply(annotation.group()),
                resolve.apply(annotation.version()), resolve.apply(annotation.plural()), annotation.namespaced());
        return WatcherDeclaration.of(resourceType, scope);
    }

    /** A secondary watcher of {@code type}: same namespace as the primary, no selectors. */
    static <S extends KubernetesObject> WatcherDeclaration<S> secondary(Class<S> type, Reconciler annotation,
            UnaryOperator<String> resolve) {
        return WatcherDeclaration.of(ResourceTypes.resolve(type), WatchScope.namespace(resolve.apply(
                annotation.namespace())));
    }
}
