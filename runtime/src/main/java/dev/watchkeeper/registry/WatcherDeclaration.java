package dev.watchkeeper.registry;

import dev.watchkeeper.resource.ResourceType;
import dev.watchkeeper.watch.WatchScope;
import io.kubernetes.client.common.KubernetesObject;
import java.util.Objects;

/**
 * A request for a watcher: resource, scope and optionally a name. Declarations that come to the same identity
 * (resource, scope, selectors, and the watch options and backoff the settings give the name) share one watcher.
 *
 * <pre>{@code
 * Watcher<V1ConfigMap> watcher = registry.watcher(
 *         WatcherDeclaration.of(ResourceType.of(V1ConfigMap.class), WatchScope.namespace("default")));
 * }</pre>
 *
 * @param name  the declared name, or {@code null} for the derived one ({@code Watcher.defaultName})
 * @param type  the resource
 * @param scope namespace and selectors
 */
public record WatcherDeclaration<T extends KubernetesObject>(String name, ResourceType<T> type, WatchScope scope) {

    public WatcherDeclaration {
        name = name == null || name.isBlank() ? null : name;
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(scope, "scope");
    }

    public static <T extends KubernetesObject> WatcherDeclaration<T> of(ResourceType<T> type, WatchScope scope) {
        return new WatcherDeclaration<>(null, type, scope);
    }

    public WatcherDeclaration<T> named(String name) {
        return new WatcherDeclaration<>(name, type, scope);
    }

    /** {@code v1/configmaps in namespace default with labels app=web}, for messages. */
    public String describe() {
        return type + " in " + scope.describe()
                + (scope.labelSelector() == null ? "" : " with labels " + scope.labelSelector())
                + (scope.fieldSelector() == null ? "" : " with fields " + scope.fieldSelector());
    }
}
