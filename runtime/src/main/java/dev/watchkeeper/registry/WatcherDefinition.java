package dev.watchkeeper.registry;

import dev.watchkeeper.backoff.BackOffSettings;
import dev.watchkeeper.resource.ResourceType;
import dev.watchkeeper.watch.WatchOptions;
import dev.watchkeeper.watch.WatchScope;
import io.kubernetes.client.common.KubernetesObject;
import java.util.Objects;

/**
 * A watcher declared in code: return one from a {@code @Bean} method and the auto-configuration registers the
 * watcher (and its store) as beans and runs it with the others. Immutable; each method returns a new definition.
 *
 * <pre>{@code
 * @Bean
 * WatcherDefinition<V1ConfigMap> webConfig() {
 *     return WatcherDefinition.of(V1ConfigMap.class).namespace("default").labelSelector("app=web");
 * }
 * }</pre>
 *
 * <p>The watcher is named by {@link #named(String)}, or else after the {@code @Bean}; inject its
 * {@code Store<V1ConfigMap>} or {@code Watcher<V1ConfigMap>} qualified by that name. Backoff and watch options left
 * unset come from {@code watchkeeper.*} properties (including {@code watchkeeper.watchers.<name>.*}).
 */
public final class WatcherDefinition<T extends KubernetesObject> {

    private final ResourceType<T> type;
    private final WatchScope scope;
    private final String name;
    private final WatchOptions options;
    private final BackOffSettings backOff;

    private WatcherDefinition(ResourceType<T> type, WatchScope scope, String name, WatchOptions options,
            BackOffSettings backOff) {
        this.type = Objects.requireNonNull(type, "type");
        this.scope = Objects.requireNonNull(scope, "scope");
        this.name = name == null || name.isBlank() ? null : name;
        this.options = options;
        this.backOff = backOff;
    }

    /** A built-in model such as {@code V1ConfigMap}, in all namespaces. */
    public static <T extends KubernetesObject> WatcherDefinition<T> of(Class<T> model) {
        return of(ResourceType.of(model));
    }

    /** Any resource (a custom or dynamic one), in all namespaces. */
    public static <T extends KubernetesObject> WatcherDefinition<T> of(ResourceType<T> type) {
        return new WatcherDefinition<>(type, WatchScope.allNamespaces(), null, null, null);
    }

    /** Watch only {@code namespace}. */
    public WatcherDefinition<T> namespace(String namespace) {
        return scope(new WatchScope(namespace, scope.labelSelector(), scope.fieldSelector()));
    }

    /** Watch every namespace (the default), and cluster-scoped resources. */
    public WatcherDefinition<T> allNamespaces() {
        return namespace(null);
    }

    public WatcherDefinition<T> labelSelector(String selector) {
        return scope(scope.withLabelSelector(selector));
    }

    public WatcherDefinition<T> fieldSelector(String selector) {
        return scope(scope.withFieldSelector(selector));
    }

    /** The backoff of this watcher, instead of the properties'. */
    public WatcherDefinition<T> backOff(BackOffSettings backOff) {
        return new WatcherDefinition<>(type, scope, name, options, Objects.requireNonNull(backOff, "backOff"));
    }

    /** How this watcher lists and watches, instead of the properties'. */
    public WatcherDefinition<T> options(WatchOptions options) {
        return new WatcherDefinition<>(type, scope, name, Objects.requireNonNull(options, "options"), backOff);
    }

    /** The watcher's name in the registry, actuator, metrics, properties and qualifiers. */
    public WatcherDefinition<T> named(String name) {
        return new WatcherDefinition<>(type, scope, name, options, backOff);
    }

    private WatcherDefinition<T> scope(WatchScope scope) {
        return new WatcherDefinition<>(type, scope, name, options, backOff);
    }

    public ResourceType<T> type() {
        return type;
    }

    public WatchScope scope() {
        return scope;
    }

    /** The name given by {@link #named}, or {@code null}. */
    public String name() {
        return name;
    }

    /** The declaration for the registry, named {@code defaultName} (the bean's name) unless {@link #named} says. */
    public WatcherDeclaration<T> declaration(String defaultName) {
        return new WatcherDeclaration<>(name != null ? name : defaultName, type, scope, options, backOff);
    }

    @Override
    public String toString() {
        return "WatcherDefinition[" + (name == null ? "" : name + ": ") + type + " in " + scope.describe() + "]";
    }
}
