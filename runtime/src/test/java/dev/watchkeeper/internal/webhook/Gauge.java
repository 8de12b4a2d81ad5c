package dev.watchkeeper.internal.webhook;

import dev.watchkeeper.annotation.KubernetesResource;
import dev.watchkeeper.webhook.StorageVersion;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;

/** The storage version (v2) of a resource whose v1 ({@link GaugeV1}) holds the limits as one string. */
@KubernetesResource(group = "test.watchkeeper.dev", version = "v2", plural = "gauges")
@StorageVersion(otherVersions = GaugeV1.class)
public class Gauge implements KubernetesObject {

    public String apiVersion = "test.watchkeeper.dev/v2";
    public String kind = "Gauge";
    public V1ObjectMeta metadata;
    public Spec spec;

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

    public static class Spec {

        public Limits limits;
    }

    public static class Limits {

        public int low;
        public int high;
    }
}
