package dev.watchkeeper.registry;

import dev.watchkeeper.backoff.BackOffSettings;
import dev.watchkeeper.resource.ResourceType;
import dev.watchkeeper.watch.WatchOptions;
import dev.watchkeeper.watch.WatchScope;
import io.kubernetes.client.common.KubernetesObject;
import java.util.Objects;

/**
 * A request for a watcher: resource, scope and optionally a name, watch options and backoff. Declarations that come
 * to the same identity (resource, scope, selectors, watch options and backoff) share one watcher (docs/semantics.md §11).
 * Options and backoff left {@code null} come from the settings of the watcher's name.
 *
 * <pre>{@code
 * Watcher<V1ConfigMap> watcher = registry.watcher(
 *         WatcherDeclaration.of(ResourceType.of(V1ConfigMap.class), WatchScope.namespace("default")));
 * }</pre>
 *
 * @param name    the declared name, or {@code null} for the derived one ({@code Watcher.defaultName})
 * @param type    the resource
 * @param scope   namespace and selectors
 * @param options how to list and watch, or {@code null} for the settings of the name
 * @param backOff the backoff numbers, or {@code null} for the settings of the name
 */
public record WatcherDeclaration<T extends KubernetesObject>(String name, ResourceType<T> type, WatchScope scope,
        WatchOptions options, BackOffSettings backOff) {

    public WatcherDeclaration {
        name = name == null || name.isBlank() ? null : name;
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(scope, "scope");
    }

    public WatcherDeclaration(String name, ResourceType<T> type, WatchScope scope) {
        this(name, type, scope, null, null);
    }

    public static <T extends KubernetesObject> WatcherDeclaration<T> of(ResourceType<T> type, WatchScope scope) {
        return new WatcherDeclaration<>(null, type, scope);
    }

    public WatcherDeclaration<T> named(String name) {
        return new WatcherDeclaration<>(name, type, scope, options, backOff);
    }

    /** This declaration with its own watch options instead of the settings of its name. */
    public WatcherDeclaration<T> withOptions(WatchOptions options) {
        return new WatcherDeclaration<>(name, type, scope, options, backOff);
    }

    /** This declaration with its own backoff numbers instead of the settings of its name. */
    public WatcherDeclaration<T> withBackOff(BackOffSettings backOff) {
        return new WatcherDeclaration<>(name, type, scope, options, backOff);
    }

    /** The declared name, or the derived one. */
    public String effectiveName() {
        return name != null ? name : dev.watchkeeper.watch.Watcher.defaultName(type, scope);
    }

    /** {@code v1/configmaps in namespace default with labels app=web}, for messages. */
    public String describe() {
        return type + " in " + scope.describe()
                + (scope.labelSelector() == null ? "" : " with labels " + scope.labelSelector())
                + (scope.fieldSelector() == null ? "" : " with fields " + scope.fieldSelector());
    }
}
