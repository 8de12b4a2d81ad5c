package dev.watchkeeper.internal.webhook;

import dev.watchkeeper.annotation.KubernetesResource;
import dev.watchkeeper.webhook.Convertible;
import io.kubernetes.client.openapi.models.V1ObjectMeta;

/** v1 of {@link Gauge}: {@code spec.range} is {@code "low-high"}; converting marks the object with a label. */
@KubernetesResource(group = "test.watchkeeper.dev", version = "v1", plural = "gauges", kind = "Gauge")
public class GaugeV1 implements Convertible<Gauge> {

    public String apiVersion = "test.watchkeeper.dev/v1";
    public String kind = "Gauge";
    public V1ObjectMeta metadata;
    public Spec spec;

    /** Runs at the start of every {@link #toHub}: a test's way to make a conversion slow. */
    static volatile Runnable beforeToHub = () -> { };

    @Override
    public Gauge toHub() {
        beforeToHub.run();
        String[] range = spec.range.split("-");
        if (range.length != 2) {
            throw new IllegalArgumentException("spec.range '" + spec.range + "' is not low-high\nsecond line");
        }
        Gauge hub = new Gauge();
        hub.metadata = metadata.putLabelsItem("converted", "to-hub");
        hub.spec = new Gauge.Spec();
        hub.spec.limits = new Gauge.Limits();
        hub.spec.limits.low = Integer.parseInt(range[0]);
        hub.spec.limits.high = Integer.parseInt(range[1]);
        return hub;
    }

    @Override
    public void fromHub(Gauge hub) {
        metadata = hub.metadata;
        spec = new Spec();
        spec.range = hub.spec.limits.low + "-" + hub.spec.limits.high;
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

    public static class Spec {

        public String range;
    }
}
