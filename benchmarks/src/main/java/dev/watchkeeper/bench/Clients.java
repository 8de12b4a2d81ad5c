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

    /**
     * Closes a watcher, surviving a known race: {@code Watcher.close()} closes the open watch's response from the
     * closing thread while the watcher thread reads it, and okio may throw {@code IllegalStateException:
     * Unbalanced enter/exit} out of {@code close()}. Reported, not fixed here (not a performance matter).
     */
    static void close(dev.watchkeeper.watch.Watcher<?> watcher) {
        try {
            watcher.close();
        } catch (IllegalStateException race) {
            closeRaces++;
            Progress.say("  (Watcher.close() threw %s: %s)", race.getClass().getSimpleName(), race.getMessage());
        }
    }

    static int closeRaces;

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
