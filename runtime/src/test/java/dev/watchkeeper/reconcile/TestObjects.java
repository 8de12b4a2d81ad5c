package dev.watchkeeper.reconcile;

import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1Secret;
import java.util.Map;

/** Small test objects. */
public final class TestObjects {

    private TestObjects() {
    }

    public static V1ConfigMap configMap(String name, String resourceVersion) {
        return configMap(name, resourceVersion, 1L);
    }

    public static V1ConfigMap configMap(String name, String resourceVersion, long generation) {
        return new V1ConfigMap().metadata(new V1ObjectMeta().namespace("default").name(name)
                .resourceVersion(resourceVersion).generation(generation)).data(Map.of("rv", resourceVersion));
    }

    public static V1Secret secretOwnedBy(String name, String owner, boolean controller) {
        return new V1Secret().metadata(new V1ObjectMeta().namespace("default").name(name).resourceVersion("1")
                .addOwnerReferencesItem(new V1OwnerReference().apiVersion("v1").kind("ConfigMap").name(owner)
                        .uid("uid-" + owner).controller(controller)));
    }
}
