package dev.watchkeeper.internal.reconcile;

import dev.watchkeeper.reconcile.ReconcileContext;
import io.kubernetes.client.common.KubernetesObject;

/**
 * Cleans up after an object that is being deleted and still carries the reconciler's {@link Finalizer}: whatever
 * outside the cluster (or not covered by owner references) the reconciler made for it. Called instead of the
 * reconcile function, never twice at once for one key; when it returns, the finalizer is removed and Kubernetes
 * deletes the object. Throw to be retried with the object's backoff (the finalizer stays); it must be safe to run
 * again.
 *
 * <pre>{@code
 * CleanupFunction<V1ConfigMap> cleanup = (configMap, context) -> bucket.deleteAll(configMap.getMetadata().getUid());
 * }</pre>
 */
@FunctionalInterface
public interface CleanupFunction<T extends KubernetesObject> {

    void cleanup(T object, ReconcileContext context) throws Exception;
}
