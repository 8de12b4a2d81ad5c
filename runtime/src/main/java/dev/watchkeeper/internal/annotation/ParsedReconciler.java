package dev.watchkeeper.internal.annotation;

import dev.watchkeeper.annotation.Reconciler;
import dev.watchkeeper.internal.registry.WatcherSpec;
import io.kubernetes.client.common.KubernetesObject;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * One {@code @Reconciler} method, parsed and checked by {@link ReconcilerParser}: what the early watcher registrar
 * makes beans of and what the post-processor registers a reconciler for, computed once, the same way.
 *
 * @param beanName     the bean declaring the method
 * @param method       the annotated method
 * @param annotation   its annotation
 * @param name         the reconciler's name ({@code name}, else {@code <beanName>-<methodName>})
 * @param primaryType  the type of the first parameter
 * @param takesContext whether a {@code ReconcileContext} is the second parameter
 * @param primary      the primary watcher (scope and selectors resolved)
 * @param owned        the watchers of {@code owns}, in the primary's namespace
 * @param watched      the watchers of {@code watches}, in the primary's namespace
 * @param debounce     the {@code debounce} attribute, or {@code null} when it is empty
 * @param timeout      the {@code timeout} attribute, or {@code null} when it is empty
 * @param namespaces   a set of two or more namespaces, each watched by its own copy of every watcher above (their
 *                     scopes then name no namespace); empty = the namespace of their scopes
 * @param finalization the finalizer and its {@code @Cleanup} method, or {@code null} without a finalizer
 */
public record ParsedReconciler(String beanName, Method method, Reconciler annotation, String name,
        Class<? extends KubernetesObject> primaryType, boolean takesContext, WatcherSpec<?> primary,
        List<WatcherSpec<?>> owned, List<WatcherSpec<?>> ownedWhenServed,
        List<WatcherSpec<?>> watched, Duration debounce, Duration timeout, List<String> namespaces,
        Finalization finalization) {

    public ParsedReconciler {
        owned = List.copyOf(owned);
        ownedWhenServed = List.copyOf(ownedWhenServed);
        watched = List.copyOf(watched);
        namespaces = List.copyOf(namespaces);
    }

    /**
     * A reconciler's finalizer and the {@link Cleanup @Cleanup} method for it.
     *
     * @param finalizer    the finalizer's name (placeholders resolved)
     * @param method       the cleanup method
     * @param takesContext whether a {@code ReconcileContext} is its second parameter
     */
    public record Finalization(String finalizer, Method method, boolean takesContext) {
    }

    /** Every watcher the reconciler reads: primary, owned, owned when served, watched, once per namespace of a set. */
    public List<WatcherSpec<?>> watchers() {
        List<WatcherSpec<?>> all = new ArrayList<>();
        all.addAll(primary.inEach(namespaces));
        owned.forEach(declaration -> all.addAll(declaration.inEach(namespaces)));
        ownedWhenServed.forEach(declaration -> all.addAll(declaration.inEach(namespaces)));
        watched.forEach(declaration -> all.addAll(declaration.inEach(namespaces)));
        return all;
    }

    /** {@code bean 'x' method Type.name(Param, ...)}, for messages. */
    public String source() {
        return AnnotatedMethods.describe(beanName, method);
    }

    /** An {@link IllegalStateException} naming this method and {@code problem}. */
    IllegalStateException invalid(String problem) {
        return AnnotatedMethods.invalid(Reconciler.class, beanName, method, problem);
    }
}
