package dev.watchkeeper.internal.registry;

import dev.watchkeeper.internal.resource.ResourceType;
import dev.watchkeeper.internal.watch.Watcher;
import dev.watchkeeper.internal.watch.WatcherBuilder;
import dev.watchkeeper.internal.watch.http.HttpWatchApi;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;

/**
 * Starts the builder of each watcher the registry creates; the registry then sets name, scope, options, backoff,
 * time and threads. The default talks HTTP through the environment's {@link ApiClient}; tests and other
 * transports pass {@code Watcher.builder(watchApi, type)}.
 *
 * <pre>{@code
 * WatcherFactory inMemory = new WatcherFactory() {
 *     public <T extends KubernetesObject> WatcherBuilder<T> builder(ResourceType<T> type) {
 *         return Watcher.builder(fakeApiFor(type), type);
 *     }
 * };
 * }</pre>
 */
public interface WatcherFactory {

    <T extends KubernetesObject> WatcherBuilder<T> builder(ResourceType<T> type);

    /** Watchers over HTTP through {@code client}. */
    static WatcherFactory http(ApiClient client) {
        return new WatcherFactory() {
            @Override
            public <T extends KubernetesObject> WatcherBuilder<T> builder(ResourceType<T> type) {
                if (client == null) {
                    throw new IllegalStateException("no ApiClient to watch " + type + " with");
                }
                return HttpWatchApi.watcher(client, type);
            }
        };
    }
}
