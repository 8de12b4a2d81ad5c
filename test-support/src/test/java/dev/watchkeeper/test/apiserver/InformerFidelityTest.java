package dev.watchkeeper.test.apiserver;

import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ConfigMapList;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** client-java's own SharedIndexInformer syncs against the fake and sees changes made over HTTP. */
class InformerFidelityTest {

    @Test
    void sharedIndexInformerSeesAddUpdateAndDelete() throws ApiException {
        try (InMemoryApiServer server = new InMemoryApiServer().start()) {
            server.create(new V1ConfigMap().metadata(new V1ObjectMeta().name("seed").namespace("default")));
            ApiClient client = server.apiClient();
            SharedInformerFactory factory = new SharedInformerFactory(client);
            SharedIndexInformer<V1ConfigMap> informer = factory.sharedIndexInformerFor(
                    new GenericKubernetesApi<>(V1ConfigMap.class, V1ConfigMapList.class, "", "v1", "configmaps",
                            client), V1ConfigMap.class, 0L);
            List<String> seen = new CopyOnWriteArrayList<>();
            informer.addEventHandler(new ResourceEventHandler<>() {
                @Override
                public void onAdd(V1ConfigMap obj) {
                    seen.add("add:" + obj.getMetadata().getName());
                }

                @Override
                public void onUpdate(V1ConfigMap oldObj, V1ConfigMap newObj) {
                    seen.add("update:" + newObj.getMetadata().getName() + "=" + newObj.getData().get("k"));
                }

                @Override
                public void onDelete(V1ConfigMap obj, boolean deletedFinalStateUnknown) {
                    seen.add("delete:" + obj.getMetadata().getName());
                }
            });
            factory.startAllRegisteredInformers();
            try {
                await().until(informer::hasSynced);
                assertThat(seen).containsExactly("add:seed");

                CoreV1Api core = new CoreV1Api(client);
                core.createNamespacedConfigMap("default", new V1ConfigMap()
                        .metadata(new V1ObjectMeta().name("x").namespace("default")).data(Map.of("k", "1")))
                        .execute();
                V1ConfigMap x = core.readNamespacedConfigMap("x", "default").execute();
                x.setData(Map.of("k", "2"));
                core.replaceNamespacedConfigMap("x", "default", x).execute();
                core.deleteNamespacedConfigMap("x", "default").execute();

                await().until(() -> seen.size() == 4);
                assertThat(seen).containsExactly("add:seed", "add:x", "update:x=2", "delete:x");
                assertThat(informer.getIndexer().list()).extracting(c -> c.getMetadata().getName())
                        .containsExactly("seed");
            } finally {
                factory.stopAllRegisteredInformers();
            }
        }
    }
}
