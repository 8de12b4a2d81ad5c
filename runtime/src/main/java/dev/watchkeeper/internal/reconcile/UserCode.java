package dev.watchkeeper.internal.reconcile;

import io.kubernetes.client.common.KubernetesObject;
import java.util.List;

/**
 * The code a reconciler runs that is not Watchkeeper's: the reconcile function, the finalizer ({@code null} for
 * none), the observer around each call and the listeners told of each outcome.
 */
record UserCode<T extends KubernetesObject>(ReconcileFunction<T> reconcile, Finalizer<T> finalizer,
        ReconcileObserver observer, List<ReconcileListener> listeners) {

    UserCode {
        listeners = List.copyOf(listeners);
    }
}
