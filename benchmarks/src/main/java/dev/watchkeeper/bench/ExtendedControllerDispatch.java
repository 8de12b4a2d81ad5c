package dev.watchkeeper.bench;

import io.kubernetes.client.extended.controller.Controller;
import io.kubernetes.client.extended.controller.DefaultController;
import io.kubernetes.client.extended.controller.builder.ControllerBuilder;
import io.kubernetes.client.extended.controller.reconciler.Request;
import io.kubernetes.client.extended.controller.reconciler.Result;
import io.kubernetes.client.extended.workqueue.RateLimitingQueue;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.informer.cache.Lister;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import java.time.Duration;

/**
 * The peer under the dispatch scenario: client-java-extended 25's {@link DefaultController}, built the way its docs build one
 * ({@link ControllerBuilder#defaultBuilder}, which gives it a {@code DefaultRateLimitingQueue}), fed by client-java
 * 27's {@link SharedIndexInformer} reading the synthetic API through {@link WatchApiListerWatcher}.
 */
final class ExtendedControllerDispatch extends DispatchTarget {

    private final SharedInformerFactory factory;
    private final Controller controller;
    private final RateLimitingQueue<Request> queue;
    private Thread runner;

    ExtendedControllerDispatch(int keys, int workers) {
        super(keys);
        // Never called (the lister-watcher replaces it), but the factory insists on a client without read timeout.
        this.factory = new SharedInformerFactory(new ApiClient().setReadTimeout(0));
        SharedIndexInformer<V1ConfigMap> informer =
                factory.sharedIndexInformerFor(new WatchApiListerWatcher(api), V1ConfigMap.class, 0L);
        Lister<V1ConfigMap> configMaps = new Lister<>(informer.getIndexer());
        this.controller = ControllerBuilder.defaultBuilder(factory)
                .watch(workQueue -> ControllerBuilder.controllerWatchBuilder(V1ConfigMap.class, workQueue).build())
                .withReconciler(request -> {
                    // Ours hands the reconciler the cached object; a DefaultController reconciler is handed a key
                    // and fetches the object from the informer's cache itself, so this one does too.
                    V1ConfigMap object = configMaps.namespace(request.getNamespace()).get(request.getName());
                    probe.reconcile(SyntheticWatchApi.index(object.getMetadata().getName()));
                    return new Result(false);
                })
                .withName("peer-dispatch")
                .withWorkerCount(workers)
                .withReadyFunc(informer::hasSynced)
                .build();
        this.queue = ((DefaultController) controller).getWorkQueue();
    }

    @Override
    String name() {
        return "peer: client-java-extended 25 DefaultController";
    }

    @Override
    String updatePath() {
        return "client-java 27 SharedIndexInformer → DefaultControllerWatch → DefaultRateLimitingQueue";
    }

    @Override
    void start() throws Exception {
        factory.startAllRegisteredInformers();
        // run() blocks until the workers exit; it first polls the ready function once a second.
        runner = new Thread(controller, "peer-dispatch-run");
        runner.setDaemon(true);
        runner.start();
        probe.awaitCount(keys, Duration.ofMinutes(2));
    }

    @Override
    void enqueue(int key) {
        queue.add(new Request("bench", objectName(key)));
    }

    @Override
    public void close() {
        controller.shutdown();
        factory.stopAllRegisteredInformers();
    }
}
