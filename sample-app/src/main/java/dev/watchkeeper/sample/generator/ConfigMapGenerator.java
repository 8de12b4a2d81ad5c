package dev.watchkeeper.sample.generator;

import dev.watchkeeper.annotation.KubernetesResource;
import dev.watchkeeper.annotation.PrinterColumn;
import dev.watchkeeper.annotation.ValidationRule;
import dev.watchkeeper.webhook.StorageVersion;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1Condition;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@code ConfigMapGenerator} ({@code samples.watchkeeper.dev/v1}): asks for {@code replicas} ConfigMaps named
 * {@code <namePrefix>-<i>}, each holding {@code content}. Plain fields, so client-java's Gson reads and writes it.
 *
 * <pre>
 * apiVersion: samples.watchkeeper.dev/v1
 * kind: ConfigMapGenerator
 * metadata: {name: greetings, namespace: default}
 * spec: {replicas: 2, namePrefix: hello, content: {greeting: "hello, world"}}
 * </pre>
 *
 * It is the version the API server stores and the reconciler reads; {@link ConfigMapGeneratorV1alpha1} is the
 * other one it serves, converted by the sample's conversion webhook. Its CRD, {@code deploy/01-crd.yaml}, is
 * generated from the two classes ({@code CustomResourceDefinitions}).
 */
@KubernetesResource(group = ConfigMapGenerator.GROUP, version = ConfigMapGenerator.VERSION,
        plural = ConfigMapGenerator.PLURAL, shortNames = "cmg")
@StorageVersion(otherVersions = ConfigMapGeneratorV1alpha1.class)
@PrinterColumn(name = "Replicas", type = "integer", jsonPath = ".spec.replicas")
@PrinterColumn(name = "Ready", jsonPath = ".status.conditions[?(@.type==\"Ready\")].status")
@PrinterColumn(name = "Age", type = "date", jsonPath = ".metadata.creationTimestamp")
public class ConfigMapGenerator implements KubernetesObject {

    public static final String GROUP = "samples.watchkeeper.dev";
    public static final String VERSION = "v1";
    public static final String PLURAL = "configmapgenerators";
    public static final String KIND = "ConfigMapGenerator";
    public static final String API_VERSION = GROUP + "/" + VERSION;

    private String apiVersion = API_VERSION;
    private String kind = KIND;
    private V1ObjectMeta metadata;
    private Spec spec;
    private Status status;

    /** A generator {@code namespace/name} with {@code content}, one replica and the name as prefix. */
    public static ConfigMapGenerator of(String namespace, String name, Map<String, String> content) {
        ConfigMapGenerator generator = new ConfigMapGenerator();
        generator.setMetadata(new V1ObjectMeta().namespace(namespace).name(name));
        generator.setSpec(new Spec().content(content));
        return generator;
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

    public Status getStatus() {
        return status;
    }

    public void setStatus(Status status) {
        this.status = status;
    }

    /** What to generate. */
    @ValidationRule(value = "!has(self.namePrefix) || !self.namePrefix.endsWith('-')",
            message = "namePrefix must not end with '-': the ConfigMaps' names add '-<i>'")
    public static class Spec {

        @NotNull
        private Map<String, String> content = new LinkedHashMap<>();
        @Min(0)
        private Integer replicas;
        private String namePrefix;

        public Map<String, String> getContent() {
            return content == null ? Map.of() : content;
        }

        public Spec content(Map<String, String> content) {
            this.content = new LinkedHashMap<>(content);
            return this;
        }

        /** How many ConfigMaps; default 1. */
        public int getReplicas() {
            return replicas == null ? 1 : replicas;
        }

        public Spec replicas(Integer replicas) {
            this.replicas = replicas;
            return this;
        }

        /** The ConfigMaps' name prefix, or {@code null} for the generator's name. */
        public String getNamePrefix() {
            return namePrefix;
        }

        public Spec namePrefix(String namePrefix) {
            this.namePrefix = namePrefix;
            return this;
        }
    }

    /** What the controller last did. */
    public static class Status {

        private Long observedGeneration;
        private List<V1Condition> conditions = new ArrayList<>();

        public Long getObservedGeneration() {
            return observedGeneration;
        }

        public Status observedGeneration(Long observedGeneration) {
            this.observedGeneration = observedGeneration;
            return this;
        }

        public List<V1Condition> getConditions() {
            return conditions == null ? List.of() : conditions;
        }

        public Status conditions(List<V1Condition> conditions) {
            this.conditions = new ArrayList<>(conditions);
            return this;
        }
    }
}
