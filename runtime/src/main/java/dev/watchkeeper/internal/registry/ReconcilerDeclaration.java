package dev.watchkeeper.internal.registry;

import dev.watchkeeper.internal.reconcile.Finalizer;
import dev.watchkeeper.internal.reconcile.ReconcileFunction;
import dev.watchkeeper.reconcile.Trigger;
import dev.watchkeeper.reconcile.TriggerFilter;
import io.kubernetes.client.common.KubernetesObject;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Everything needed to build a reconciler, as the {@code @Reconciler} post-processor (or a hand-written
 * configuration) declares it.
 *
 * <pre>{@code
 * registry.registerReconciler(new ReconcilerDeclaration<>("mirror",
 *         WatcherSpec.of(ResourceType.of(V1ConfigMap.class), WatchScope.allNamespaces()),
 *         List.of(), (configMap, context) -> ReconcileResult.done(), 1, Set.of(Trigger.ALL), null, "MirrorConfig"));
 * }</pre>
 *
 * @param name        the reconciler's name (shares one namespace with watcher names)
 * @param primary     the watcher of the reconciled resource
 * @param secondaries owned and watched resources
 * @param reconciler  the reconcile function
 * @param concurrency the declared concurrency; settings may override it
 * @param triggers    the declared triggers; settings that set triggers override them
 * @param filter      a trigger filter of the user's, or {@code null}
 * @param source      where it was declared, for messages ({@code bean 'x' method reconcile(...)})
 * @param debounce    the declared debounce, or {@code null} for the settings' default; settings may override it
 * @param namespaces  a set of namespaces to reconcile in: the primary and every secondary are watched in each, one
 *                    watcher per namespace ({@link WatcherSpec#inEach}); empty = as their scopes say
 * @param finalizer   the finalizer and its cleanup, or {@code null}
 * @param timeout     the declared reconcile timeout, or {@code null} for the settings' default; settings may override
 *                    it
 */
public record ReconcilerDeclaration<T extends KubernetesObject>(String name, WatcherSpec<T> primary,
        List<SecondaryDeclaration<?>> secondaries, ReconcileFunction<T> reconciler, int concurrency,
        Set<Trigger> triggers, TriggerFilter<T> filter, String source, Duration debounce, List<String> namespaces,
        Finalizer<T> finalizer, Duration timeout) {

    /**
     * A declaration without a debounce or a finalizer of its own, in the namespace its primary's scope names (or
     * all).
     */
    public ReconcilerDeclaration(String name, WatcherSpec<T> primary, List<SecondaryDeclaration<?>> secondaries,
            ReconcileFunction<T> reconciler, int concurrency, Set<Trigger> triggers, TriggerFilter<T> filter,
            String source) {
        this(name, primary, secondaries, reconciler, concurrency, triggers, filter, source, null, List.of(), null);
    }

    /** A declaration without a timeout of its own. */
    public ReconcilerDeclaration(String name, WatcherSpec<T> primary, List<SecondaryDeclaration<?>> secondaries,
            ReconcileFunction<T> reconciler, int concurrency, Set<Trigger> triggers, TriggerFilter<T> filter,
            String source, Duration debounce, List<String> namespaces, Finalizer<T> finalizer) {
        this(name, primary, secondaries, reconciler, concurrency, triggers, filter, source, debounce, namespaces,
                finalizer, null);
    }

    public ReconcilerDeclaration {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a reconciler needs a name (" + source + ")");
        }
        Objects.requireNonNull(primary, "primary");
        secondaries = List.copyOf(secondaries);
        Objects.requireNonNull(reconciler, "reconciler");
        triggers = triggers == null || triggers.isEmpty() ? Set.of(Trigger.ALL) : Set.copyOf(triggers);
        source = source == null ? "reconciler " + name : source;
        namespaces = namespaces == null ? List.of() : List.copyOf(namespaces);
    }
}
