package dev.watchkeeper.bench;

import dev.watchkeeper.internal.reconcile.Reconciler;
import dev.watchkeeper.internal.reconcile.ReconcilerSettings;
import dev.watchkeeper.reconcile.ReconcileContext;
import dev.watchkeeper.reconcile.ReconcileResult;
import dev.watchkeeper.internal.resource.ResourceType;
import dev.watchkeeper.store.ObjectKey;
import dev.watchkeeper.internal.watch.Watcher;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import java.time.Duration;

/** Ours under the dispatch scenario: a {@link Watcher} on the synthetic API and a {@link Reconciler} with 8 workers. */
final class WatchkeeperDispatch extends DispatchTarget {

    private final Watcher<V1ConfigMap> watcher;
    private final Reconciler<V1ConfigMap> reconciler;

    WatchkeeperDispatch(int keys, int workers) {
        super(keys);
        this.watcher = Watcher.builder(api, ResourceType.of(V1ConfigMap.class)).build();
        this.reconciler = Reconciler.builder("dispatch", watcher, (V1ConfigMap object, ReconcileContext context) -> {
            probe.reconcile(SyntheticWatchApi.index(object.getMetadata().getName()));
            return ReconcileResult.done();
        }).settings(ReconcilerSettings.defaults().withConcurrency(workers)).build();
    }

    @Override
    String name() {
        return "ours: Reconciler";
    }

    @Override
    String updatePath() {
        return "our Watcher → store → Reconciler's WorkQueue";
    }

    @Override
    void start() throws Exception {
        watcher.start();
        reconciler.start();
        if (!watcher.store().awaitReady(Duration.ofMinutes(2))) {
            throw new IllegalStateException("the synthetic watcher never became ready");
        }
        probe.awaitCount(keys, Duration.ofMinutes(2));
    }

    @Override
    void enqueue(int key) {
        reconciler.enqueue(new ObjectKey("bench", objectName(key)));
    }

    @Override
    public void close() {
        reconciler.close(Duration.ofSeconds(5));
        Clients.close(watcher);
    }
}
