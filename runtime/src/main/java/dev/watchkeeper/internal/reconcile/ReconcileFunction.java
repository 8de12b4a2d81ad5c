package dev.watchkeeper.internal.reconcile;

import dev.watchkeeper.reconcile.ReconcileContext;
import dev.watchkeeper.reconcile.ReconcileResult;
import io.kubernetes.client.common.KubernetesObject;

/**
 * Brings the world in line with one object: the body of a reconciler. Called with the object as the primary
 * store holds it when the key is taken from the queue, never twice at once for one key.
 *
 * <pre>{@code
 * ReconcileFunction<V1ConfigMap> reconciler = (configMap, context) -> {
 *     ensureMirrorExists(configMap, context.apiClient());
 *     return ReconcileResult.done();
 * };
 * }</pre>
 *
 * Throw to be retried with per-object backoff; throw {@link TerminalReconcileException} when retrying cannot help.
 */
@FunctionalInterface
public interface ReconcileFunction<T extends KubernetesObject> {

    ReconcileResult reconcile(T object, ReconcileContext context) throws Exception;
}
