package dev.watchkeeper.bench;

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
    static void close(dev.watchkeeper.watch.Watcher<?> watcher) {
        watcher.close();
    }

    /** An {@link ApiClient} for {@code url} without read timeout, so watches stay open. */
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
