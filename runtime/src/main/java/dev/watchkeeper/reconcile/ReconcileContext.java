package dev.watchkeeper.reconcile;

import dev.watchkeeper.store.ObjectKey;
import dev.watchkeeper.store.Store;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;

/**
 * What a reconcile may know besides the object: which key, which attempt, the API client, and the caches of the
 * controller's watched resources. Declare it as a parameter of a {@code @Reconciler} method.
 *
 * <pre>{@code
 * @Reconciler(owns = V1ConfigMap.class)
 * ReconcileResult reconcile(ConfigMapGenerator generator, ReconcileContext context) {
 *     List<V1ConfigMap> owned = context.store(V1ConfigMap.class).listInNamespace(context.key().namespace());
 *     ...
 * }
 * }</pre>
 */
public interface ReconcileContext {

    /** The key being reconciled. */
    ObjectKey key();

    /** 1 for the first try, 2 for the first retry after an error, and so on. */
    int attempt();

    /** The client the controller's watchers use; write through it. */
    ApiClient apiClient();

    /**
     * The store of the controller's watcher for {@code type} (the primary or a secondary resource).
     *
     * @throws IllegalArgumentException when the controller watches no such type
     */
    <S extends KubernetesObject> Store<S> store(Class<S> type);

    /**
     * Records a Kubernetes Event about the reconciled object ({@code type} {@code Normal} or {@code Warning}).
     * Failures to record are logged, never thrown: an event is not worth failing a reconcile for.
     */
    void publishEvent(String type, String reason, String message);
}
