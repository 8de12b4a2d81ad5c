package dev.watchkeeper.registry;

import dev.watchkeeper.store.Indexer;
import io.kubernetes.client.common.KubernetesObject;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * A watcher declared in code: return one from a {@code @Bean} method and the starter registers the watcher and its
 * store as beans, named by {@link #named(String)} or else after the {@code @Bean} method. Its backoff and list/watch
 * options are the properties of its name ({@code watchkeeper.watchers.<name>.*}). Declarations of the same resource,
 * namespace and selectors share one watcher, whose store keeps the indexes of all of them. Immutable: each method
 * returns a new declaration.
 *
 * <pre>{@code
 * @Bean
 * WatcherDeclaration<V1ConfigMap> webConfig() {
 *     return WatcherDeclaration.of(V1ConfigMap.class).namespace("default").labelSelector("app=web");
 * }
 * }</pre>
 *
 * @param type          a client-java model such as {@code V1ConfigMap}, or a class annotated
 *                      {@code @KubernetesResource}
 * @param name          the declared name, or {@code null} for the bean's
 * @param namespace     the one namespace to watch, or {@code null} for all namespaces
 * @param labelSelector or {@code null}
 * @param fieldSelector or {@code null}
 * @param indexes       custom indexes of the watcher's store ({@link #index}), by distinct names
 */
public record WatcherDeclaration<T extends KubernetesObject>(Class<T> type, String name, String namespace,
        String labelSelector, String fieldSelector, List<Indexer<T>> indexes) {

    public WatcherDeclaration {
        Objects.requireNonNull(type, "type");
        name = blankToNull(name);
        namespace = blankToNull(namespace);
        labelSelector = blankToNull(labelSelector);
        fieldSelector = blankToNull(fieldSelector);
        indexes = List.copyOf(indexes);
        if (indexes.stream().map(Indexer::name).distinct().count() < indexes.size()) {
            throw new IllegalArgumentException("two indexes of one watcher share a name: "
                    + indexes.stream().map(Indexer::name).toList());
        }
    }

    /** A watcher of {@code type} in all namespaces. */
    public static <T extends KubernetesObject> WatcherDeclaration<T> of(Class<T> type) {
        return new WatcherDeclaration<>(type, null, null, null, null, List.of());
    }

    /** The watcher's name in the registry, actuator, metrics, properties and qualifiers. */
    public WatcherDeclaration<T> named(String name) {
        return new WatcherDeclaration<>(type, name, namespace, labelSelector, fieldSelector, indexes);
    }

    /** Watch only {@code namespace}. */
    public WatcherDeclaration<T> namespace(String namespace) {
        return new WatcherDeclaration<>(type, name, namespace, labelSelector, fieldSelector, indexes);
    }

    /** Watch every namespace (the default), and cluster-scoped resources. */
    public WatcherDeclaration<T> allNamespaces() {
        return namespace(null);
    }

    /** This declaration with a label selector, e.g. {@code app=web,tier!=db}. */
    public WatcherDeclaration<T> labelSelector(String selector) {
        return new WatcherDeclaration<>(type, name, namespace, selector, fieldSelector, indexes);
    }

    /** This declaration with a field selector, e.g. {@code metadata.name=app-config}. */
    public WatcherDeclaration<T> fieldSelector(String selector) {
        return new WatcherDeclaration<>(type, name, namespace, labelSelector, selector, indexes);
    }

    /**
     * This declaration with a custom index of the store, read by {@code store.listByIndex(name, key)}: {@code keys}
     * gives an object's keys in it (see {@link Indexer} for when it runs).
     *
     * <pre>{@code
     * WatcherDeclaration.of(V1Pod.class).index("node", pod -> List.of(pod.getSpec().getNodeName()));
     * }</pre>
     */
    public WatcherDeclaration<T> index(String name, Function<? super T, ? extends Collection<String>> keys) {
        List<Indexer<T>> more = new ArrayList<>(indexes);
        more.add(new Indexer<>(name, keys));
        return new WatcherDeclaration<>(type, this.name, namespace, labelSelector, fieldSelector, more);
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value;
    }
}
