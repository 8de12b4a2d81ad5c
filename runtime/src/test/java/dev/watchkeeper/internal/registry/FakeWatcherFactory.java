package dev.watchkeeper.internal.registry;

import dev.watchkeeper.reconcile.FakeWatchApi;
import dev.watchkeeper.internal.resource.ResourceType;
import dev.watchkeeper.internal.watch.Watcher;
import dev.watchkeeper.internal.watch.WatcherBuilder;
import io.kubernetes.client.common.KubernetesObject;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Watchers over one {@link FakeWatchApi} per Java type, seeded before the registry starts. */
public final class FakeWatcherFactory implements WatcherFactory {

    private final Map<Class<?>, FakeWatchApi<?>> apis = new ConcurrentHashMap<>();

    @SuppressWarnings("unchecked")
    public <T extends KubernetesObject> FakeWatchApi<T> api(ResourceType<T> type) {
        ResourceType<T> resolved = type.isResolved() ? type : type.withPlural("things", true);
        return (FakeWatchApi<T>) apis.computeIfAbsent(type.javaType(), k -> new FakeWatchApi<>(resolved));
    }

    @Override
    public <T extends KubernetesObject> WatcherBuilder<T> builder(ResourceType<T> type) {
        return Watcher.builder(api(type), type);
    }
}
