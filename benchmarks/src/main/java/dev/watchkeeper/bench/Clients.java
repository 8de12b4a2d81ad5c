package dev.watchkeeper.bench;

import dev.watchkeeper.watch.WatchEvent;
import dev.watchkeeper.watch.WatchEventListener;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ConfigMapList;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import java.time.Duration;

/** Clients as a user would build them. */
final class Clients {

    private Clients() {
    }

    /** Closes a watcher, as a user would. */
    static void close(dev.watchkeeper.internal.watch.Watcher<?> watcher) {
        watcher.close();
    }

    /** An {@link ApiClient} for {@code url} without read timeout, so watches stay open. */
    /**
     * {@code listener} as one that reads no object (event types and keys only), so the watcher decodes nothing for
     * it: the harness's own counting listeners must not make our watcher decode what the measured client would not.
     */
    static <T> WatchEventListener<T> readingNoObjects(WatchEventListener<T> listener) {
        return new WatchEventListener<>() {
            @Override
            public void onEvent(WatchEvent<T> event) {
                listener.onEvent(event);
            }

            @Override
            public boolean readsObjects() {
                return false;
            }
        };
    }

    static ApiClient apiClient(String url) {
        return new ClientBuilder().setBasePath(url).setReadTimeout(Duration.ZERO).build();
    }

    /** client-java's informer on all ConfigMaps, as its docs build it, without resync. */
    static SharedIndexInformer<V1ConfigMap> informer(SharedInformerFactory factory, ApiClient client) {
        return factory.sharedIndexInformerFor(
                new GenericKubernetesApi<>(V1ConfigMap.class, V1ConfigMapList.class, "", "v1", "configmaps", client),
                V1ConfigMap.class, 0L);
    }
}
