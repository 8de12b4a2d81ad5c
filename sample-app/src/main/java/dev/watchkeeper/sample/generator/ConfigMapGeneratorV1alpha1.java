package dev.watchkeeper.sample.generator;

import dev.watchkeeper.annotation.KubernetesResource;
import dev.watchkeeper.annotation.PrinterColumn;
import dev.watchkeeper.annotation.ValidationRule;
import dev.watchkeeper.webhook.Convertible;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import jakarta.validation.constraints.Min;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The first version of {@link ConfigMapGenerator}, {@code samples.watchkeeper.dev/v1alpha1}, still served for the
 * clients that write it: {@code count} ConfigMaps (v1's {@code replicas}, written out even when v1 leaves it to the
 * default of 1) whose content is a flat list of {@code key=value} entries (v1's {@code content} map, in its order).
 * The API server stores v1, which the reconciler reads; the sample's conversion webhook converts between the two.
 *
 * <pre>
 * apiVersion: samples.watchkeeper.dev/v1alpha1
 * kind: ConfigMapGenerator
 * metadata: {name: greetings, namespace: default}
 * spec: {count: 2, namePrefix: hello, entries: ["greeting=hello, world"]}
 * </pre>
 */
@KubernetesResource(group = ConfigMapGenerator.GROUP, version = ConfigMapGeneratorV1alpha1.VERSION,
        plural = ConfigMapGenerator.PLURAL, kind = ConfigMapGenerator.KIND)
@PrinterColumn(name = "Count", type = "integer", jsonPath = ".spec.count")
@PrinterColumn(name = "Age", type = "date", jsonPath = ".metadata.creationTimestamp")
public class ConfigMapGeneratorV1alpha1 implements Convertible<ConfigMapGenerator> {

    public static final String VERSION = "v1alpha1";
    public static final String API_VERSION = ConfigMapGenerator.GROUP + "/" + VERSION;

    private String apiVersion = API_VERSION;
    private String kind = ConfigMapGenerator.KIND;
    private V1ObjectMeta metadata;
    private Spec spec;
    private ConfigMapGenerator.Status status;

    /**
     * @throws IllegalArgumentException naming the entry, when one is not {@code key=value} or repeats a key: the
     *                                  API server refuses the write with the message
     */
    @Override
    public ConfigMapGenerator toHub() {
        ConfigMapGenerator hub = new ConfigMapGenerator();
        hub.setMetadata(metadata);
        hub.setStatus(status);
        if (spec != null) {
            Map<String, String> content = new LinkedHashMap<>();
            for (String entry : spec.getEntries()) {
                int equals = entry.indexOf('=');
                if (equals <= 0) {
                    throw new IllegalArgumentException("spec.entries: '" + entry + "' is not key=value");
                }
                if (content.put(entry.substring(0, equals), entry.substring(equals + 1)) != null) {
                    throw new IllegalArgumentException("spec.entries: the key '" + entry.substring(0, equals)
                            + "' is there twice");
                }
            }
            hub.setSpec(new ConfigMapGenerator.Spec().content(content).replicas(spec.getCount())
                    .namePrefix(spec.getNamePrefix()));
        }
        return hub;
    }

    @Override
    public void fromHub(ConfigMapGenerator hub) {
        metadata = hub.getMetadata();
        status = hub.getStatus();
        ConfigMapGenerator.Spec its = hub.getSpec();
        if (its != null) {
            List<String> entries = new ArrayList<>();
            its.getContent().forEach((key, value) -> entries.add(key + "=" + value));
            spec = new Spec().count(its.getReplicas()).namePrefix(its.getNamePrefix()).entries(entries);
        }
    }

    @Override
    public String getApiVersion() {
        return apiVersion;
    }

    public void setApiVersion(String apiVersion) {
        this.apiVersion = apiVersion;
    }

    @Override
    public String getKind() {
        return kind;
    }

    public void setKind(String kind) {
        this.kind = kind;
    }

    @Override
    public V1ObjectMeta getMetadata() {
        return metadata;
    }

    public void setMetadata(V1ObjectMeta metadata) {
        this.metadata = metadata;
    }

    public Spec getSpec() {
        return spec;
    }

    public void setSpec(Spec spec) {
        this.spec = spec;
    }

    public ConfigMapGenerator.Status getStatus() {
        return status;
    }

    /** What to generate, as v1alpha1 says it. */
    @ValidationRule(value = "!has(self.namePrefix) || !self.namePrefix.endsWith('-')",
            message = "namePrefix must not end with '-': the ConfigMaps' names add '-<i>'")
    public static class Spec {

        @Min(0)
        private Integer count;
        private String namePrefix;
        private List<String> entries = new ArrayList<>();

        /** How many ConfigMaps; {@code null} for 1. */
        public Integer getCount() {
            return count;
        }

        public Spec count(Integer count) {
            this.count = count;
            return this;
        }

        public String getNamePrefix() {
            return namePrefix;
        }

        public Spec namePrefix(String namePrefix) {
            this.namePrefix = namePrefix;
            return this;
        }

        /** The ConfigMaps' entries, each {@code key=value}. */
        public List<String> getEntries() {
            return entries == null ? List.of() : entries;
        }

        public Spec entries(List<String> entries) {
            this.entries = new ArrayList<>(entries);
            return this;
        }
    }
}
