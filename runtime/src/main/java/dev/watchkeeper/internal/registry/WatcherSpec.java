package dev.watchkeeper.internal.registry;

import dev.watchkeeper.internal.resource.ResourceTypes;
import dev.watchkeeper.registry.WatcherDeclaration;
import dev.watchkeeper.internal.backoff.BackOffSettings;
import dev.watchkeeper.internal.resource.ResourceType;
import dev.watchkeeper.store.Indexer;
import dev.watchkeeper.internal.watch.WatchOptions;
import dev.watchkeeper.internal.watch.WatchScope;
import io.kubernetes.client.common.KubernetesObject;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * A watcher asked for: resource, scope and optionally a name, watch options, backoff and custom indexes of its
 * store. Declarations that come to the same identity (resource, scope, selectors, watch options and backoff) share
 * one watcher (docs/semantics.md §11), whose store keeps the indexes of all of them. Options and backoff left
 * {@code null} come from the settings of the watcher's name. Immutable; each method returns a new declaration.
 *
 * <p>An adopter declares a watcher with the public {@link WatcherDeclaration}, which becomes one of these.
 *
 * @param name    the declared name, or {@code null} for the derived one ({@code WatchScope.derivedWatcherName})
 * @param type    the resource
 * @param scope   namespace and selectors
 * @param options how to list and watch, or {@code null} for the settings of the name
 * @param backOff the backoff numbers, or {@code null} for the settings of the name
 * @param indexes custom indexes of the watcher's store ({@link #index}), by distinct names
 */
public record WatcherSpec<T extends KubernetesObject>(String name, ResourceType<T> type, WatchScope scope,
        WatchOptions options, BackOffSettings backOff, List<Indexer<T>> indexes) {

    public WatcherSpec {
        name = name == null || name.isBlank() ? null : name;
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(scope, "scope");
        indexes = List.copyOf(indexes);
        if (indexes.stream().map(Indexer::name).distinct().count() < indexes.size()) {
            throw new IllegalArgumentException("two indexes of one watcher share a name: "
                    + indexes.stream().map(Indexer::name).toList());
        }
    }

    /** What a {@code @Bean}'s {@link WatcherDeclaration} asks for, with the settings of its name. */
    public static <T extends KubernetesObject> WatcherSpec<T> of(WatcherDeclaration<T> declaration) {
        WatchScope scope = new WatchScope(declaration.namespace(), declaration.labelSelector(),
                declaration.fieldSelector());
        return new WatcherSpec<>(declaration.name(), ResourceTypes.resolve(declaration.type()), scope, null, null,
                declaration.indexes());
    }

    /** A built-in model such as {@code V1ConfigMap}, in all namespaces. */
    public static <T extends KubernetesObject> WatcherSpec<T> of(Class<T> model) {
        return of(ResourceType.of(model));
    }

    /** Any resource (a custom or dynamic one), in all namespaces. */
    public static <T extends KubernetesObject> WatcherSpec<T> of(ResourceType<T> type) {
        return of(type, WatchScope.allNamespaces());
    }

    /** A watcher of {@code type} in all namespaces, named as derived, with the settings of its name. */
    public static <T extends KubernetesObject> WatcherSpec<T> of(ResourceType<T> type, WatchScope scope) {
        return new WatcherSpec<>(null, type, scope, null, null, List.of());
    }

    /** The watcher's name in the registry, actuator, metrics, properties and qualifiers. */
    public WatcherSpec<T> named(String name) {
        return new WatcherSpec<>(name, type, scope, options, backOff, indexes);
    }

    /** Watch only {@code namespace}. */
    public WatcherSpec<T> namespace(String namespace) {
        return scope(scope.withNamespace(namespace));
    }

    /** Watch every namespace (the default), and cluster-scoped resources. */
    public WatcherSpec<T> allNamespaces() {
        return namespace(null);
    }

    /** This declaration with a label selector. */
    public WatcherSpec<T> labelSelector(String selector) {
        return scope(scope.withLabelSelector(selector));
    }

    /** This declaration with a field selector. */
    public WatcherSpec<T> fieldSelector(String selector) {
        return scope(scope.withFieldSelector(selector));
    }

    /** How this watcher lists and watches, instead of the settings of its name. */
    public WatcherSpec<T> options(WatchOptions options) {
        return new WatcherSpec<>(name, type, scope, Objects.requireNonNull(options, "options"), backOff,
                indexes);
    }

    /** The backoff of this watcher, instead of the settings of its name. */
    public WatcherSpec<T> backOff(BackOffSettings backOff) {
        return new WatcherSpec<>(name, type, scope, options, Objects.requireNonNull(backOff, "backOff"),
                indexes);
    }

    /**
     * This declaration with a custom index of the store, read by {@code store.listByIndex(name, key)}: {@code keys}
     * gives an object's keys in it (see {@link Indexer} for when it runs). Declaring the watcher again elsewhere
     * without the index keeps it.
     *
     * <pre>{@code
     * WatcherSpec.of(V1Pod.class).index("node", pod -> List.of(pod.getSpec().getNodeName()));
     * }</pre>
     */
    public WatcherSpec<T> index(String name, Function<? super T, ? extends Collection<String>> keys) {
        List<Indexer<T>> more = new ArrayList<>(indexes);
        more.add(new Indexer<>(name, keys));
        return new WatcherSpec<>(this.name, type, scope, options, backOff, more);
    }

    /** The declared name, or the derived one. */
    public String effectiveName() {
        return name != null ? name : scope.derivedWatcherName(type);
    }

    /**
     * This declaration once per namespace of a set (docs/semantics.md §11): no namespaces is this declaration as it
     * is, one is this declaration in that namespace, several are one member each, named {@code <name>@<namespace>}
     * when this one is named and derived otherwise. The members of several are known together by
     * {@link #groupName}.
     */
    public List<WatcherSpec<T>> inEach(List<String> namespaces) {
        if (namespaces.isEmpty()) {
            return List.of(this);
        }
        if (namespaces.size() == 1) {
            return List.of(namespace(namespaces.get(0)));
        }
        List<WatcherSpec<T>> members = new ArrayList<>();
        for (String namespace : namespaces) {
            WatcherSpec<T> member = namespace(namespace);
            members.add(name == null ? member : member.named(name + "@" + namespace));
        }
        return members;
    }

    /**
     * The name of the members of {@link #inEach} for several namespaces: the declared name, or the derived one with
     * the namespaces joined by {@code +} ({@code configmaps@team-a+team-b}).
     */
    public String groupName(List<String> namespaces) {
        return name != null ? name
                : scope.withNamespace(String.join("+", namespaces)).derivedWatcherName(type);
    }

    /** {@code v1/configmaps in namespace default with labels app=web}, for messages. */
    public String describe() {
        return type + " in " + scope.describe()
                + (scope.labelSelector() == null ? "" : " with labels " + scope.labelSelector())
                + (scope.fieldSelector() == null ? "" : " with fields " + scope.fieldSelector());
    }

    private WatcherSpec<T> scope(WatchScope scope) {
        return new WatcherSpec<>(name, type, scope, options, backOff, indexes);
    }
}
