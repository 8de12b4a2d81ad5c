package dev.watchkeeper.test.reconcile;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.util.Map;

/** A custom resource class for a CRD that is installed only while a test runs: another operator's type. */
class Gadget implements KubernetesObject {

    String apiVersion;
    String kind;
    V1ObjectMeta metadata;
    Map<String, String> spec;

    Gadget() {
    }

    Gadget(String apiVersion, String kind, V1ObjectMeta metadata, Map<String, String> spec) {
        this.apiVersion = apiVersion;
        this.kind = kind;
        this.metadata = metadata;
        this.spec = spec;
    }

    @Override
    public V1ObjectMeta getMetadata() {
        return metadata;
    }

    @Override
    public String getApiVersion() {
        return apiVersion;
    }

    @Override
    public String getKind() {
        return kind;
    }
}
