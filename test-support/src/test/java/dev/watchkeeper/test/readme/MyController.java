package dev.watchkeeper.test.readme;

import dev.watchkeeper.reconcile.ReconcileLoop;
import dev.watchkeeper.reconcile.ReconcileResult;
import dev.watchkeeper.resource.ResourceType;
import dev.watchkeeper.watch.WatchScope;
import dev.watchkeeper.watch.Watcher;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.Config;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

/** The controller {@link MyControllerTest} tests: labels every ConfigMap of one namespace {@code reconciled=true}. */
final class MyController implements AutoCloseable {

    private final Watcher<V1ConfigMap> watcher;
    private final ReconcileLoop<V1ConfigMap> loop;

    private MyController(ApiClient client, String namespace) {
        watcher = Watcher.builder(client, ResourceType.of(V1ConfigMap.class))
                .scope(WatchScope.namespace(namespace)).build();
        loop = ReconcileLoop.builder("my-controller", watcher, (configMap, context) -> {
            V1ObjectMeta meta = configMap.getMetadata();
            context.apply(new V1ConfigMap().metadata(new V1ObjectMeta().namespace(meta.getNamespace())
                    .name(meta.getName()).putLabelsItem("reconciled", "true")));
            return ReconcileResult.done();
        }).apiClient(client).build();
    }

    /** Starts the controller on the cluster of {@code kubeconfig}, watching {@code namespace}. */
    static MyController start(Path kubeconfig, String namespace) throws IOException {
        MyController controller = new MyController(Config.fromConfig(kubeconfig.toString()), namespace);
        controller.watcher.start();
        controller.loop.start();
        return controller;
    }

    @Override
    public void close() {
        loop.close(Duration.ofSeconds(5));
        watcher.close();
    }
}
