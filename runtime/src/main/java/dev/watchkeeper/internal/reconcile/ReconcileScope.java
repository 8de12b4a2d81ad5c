package dev.watchkeeper.internal.reconcile;

import dev.watchkeeper.internal.backoff.TimeSource;
import dev.watchkeeper.internal.events.EventRecorder;
import dev.watchkeeper.store.ObjectKey;
import dev.watchkeeper.store.Store;
import dev.watchkeeper.internal.watch.WatcherGroup;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a reconciler's reconciles see: its name, its primary watcher, the stores of every watcher by Java type (the
 * primary's where two share a type, and apart the store of an owned watcher of the primary's own type, where children
 * are looked up), the API client ({@code null} when none was given), the clock, the record of
 * the reconciler's own writes, the Event recorder ({@code null} when none was given), the budget of its writes, and
 * the record and polls of its dependents.
 */
record ReconcileScope<T extends KubernetesObject>(String name, WatcherGroup<T> primary,
        Map<Class<?>, Store<?>> stores, Store<?> ownedOfPrimaryType, ApiClient apiClient, TimeSource time,
        OwnWrites ownWrites, EventRecorder events, WriteBudget writeBudget, DependentStats dependentStats,
        ExternalPolls polls) {

    ReconcileScope {
        stores = Map.copyOf(stores);
    }

    /** The scope of a reconciler of {@code primary} that also watches {@code secondaries}. */
    static <T extends KubernetesObject> ReconcileScope<T> of(String name, WatcherGroup<T> primary,
            List<WatcherGroup<?>> secondaries, ApiClient apiClient, TimeSource time, OwnWrites ownWrites,
            EventRecorder events, WriteBudget writeBudget, DependentStats dependentStats, ExternalPolls polls) {
        Map<Class<?>, Store<?>> stores = new LinkedHashMap<>();
        stores.put(primary.type().javaType(), primary.store());
        secondaries.forEach(s -> stores.putIfAbsent(s.type().javaType(), s.store()));
        Store<?> ownedOfPrimaryType = secondaries.stream()
                .filter(s -> s.type().javaType().equals(primary.type().javaType()))
                .map(s -> (Store<?>) s.store()).findFirst().orElse(null);
        return new ReconcileScope<>(name, primary, stores, ownedOfPrimaryType, apiClient, time, ownWrites, events,
                writeBudget, dependentStats, polls);
    }

    /** The context of attempt {@code attempt} at reconciling {@code object}. */
    DefaultReconcileContext context(ObjectKey key, int attempt, T object) {
        return new DefaultReconcileContext(name, key, attempt, apiClient, primary.type(), object, stores,
                ownedOfPrimaryType, time, ownWrites, events, writeBudget, dependentStats, polls);
    }

    /** The writes of the framework for a reconcile (finalizer, conditions), on the reconciler's write budget. */
    ObjectWrites writes() {
        return new ObjectWrites(apiClient, name, primary.type(), time, ownWrites, null, writeBudget);
    }
}
