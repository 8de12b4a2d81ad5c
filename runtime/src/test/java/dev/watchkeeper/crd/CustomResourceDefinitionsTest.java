package dev.watchkeeper.crd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.watchkeeper.annotation.KubernetesResource;
import dev.watchkeeper.internal.webhook.Gauge;
import dev.watchkeeper.internal.webhook.GaugeV1;
import dev.watchkeeper.internal.webhook.WebhookClientConfig;
import dev.watchkeeper.webhook.Convertible;
import dev.watchkeeper.webhook.StorageVersion;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

class CustomResourceDefinitionsTest {

    private final Map<String, Object> crd = CustomResourceDefinitions.definition(Widget.class);

    @Test
    void namesScopeAndVersionComeFromTheAnnotation() {
        assertThat(crd).containsEntry("apiVersion", "apiextensions.k8s.io/v1")
                .containsEntry("kind", "CustomResourceDefinition")
                .containsEntry("metadata", Map.of("name", "widgets.test.watchkeeper.dev"));
        Map<String, Object> spec = map(crd, "spec");
        assertThat(spec).containsEntry("group", "test.watchkeeper.dev").containsEntry("scope", "Namespaced");
        assertThat(map(spec, "names")).isEqualTo(Map.of("plural", "widgets", "singular", "gizmo", "kind", "Gizmo",
                "listKind", "GizmoList", "shortNames", List.of("gz", "giz")));
        assertThat(version()).containsEntry("name", "v1alpha1").containsEntry("served", true)
                .containsEntry("storage", true);
    }

    @Test
    void statusAndScaleSubresourcesAndPrinterColumns() {
        assertThat(map(version(), "subresources")).isEqualTo(Map.of("status", Map.of(),
                "scale", Map.of("specReplicasPath", ".spec.replicas", "statusReplicasPath", ".status.replicas")));
        assertThat(version().get("additionalPrinterColumns")).isEqualTo(List.of(
                Map.of("name", "Replicas", "type", "integer", "jsonPath", ".spec.replicas"),
                Map.of("name", "Ready", "type", "string", "jsonPath", ".status.conditions[?(@.type==\"Ready\")].status",
                        "description", "Whether it is ready", "priority", 1)));
    }

    @Test
    void theRootHasTheClassFieldsAndAnOpaqueMetadata() {
        Map<String, Object> root = root();
        assertThat(root).containsEntry("type", "object");
        assertThat(map(root, "properties")).containsOnlyKeys("apiVersion", "kind", "metadata", "spec", "status")
                .containsEntry("apiVersion", Map.of("type", "string"))
                .containsEntry("metadata", Map.of("type", "object"))
                .containsEntry("status", Map.of("type", "object",
                        "properties", Map.of("replicas", Map.of("type", "integer", "format", "int32"))));
    }

    @Test
    void scalarsMapToTypesAndFormats() {
        Map<String, Object> properties = specProperties();
        assertThat(properties).containsEntry("min_replicas", Map.of("type", "integer", "format", "int32",
                        "minimum", 2L, "maximum", 5L))
                .containsEntry("bytes", Map.of("type", "integer", "format", "int64"))
                .containsEntry("ratio", Map.of("type", "number", "format", "double"))
                .containsEntry("enabled", Map.of("type", "boolean"))
                .containsEntry("mode", Map.of("type", "string", "enum", List.of("fast", "SLOW")))
                .containsEntry("port", Map.of("x-kubernetes-int-or-string", true))
                .containsEntry("since", Map.of("type", "string", "format", "date-time"))
                .doesNotContainKeys("IGNORED", "cached");
    }

    @Test
    void mapsOpenObjectsAndEmbeddedResources() {
        Map<String, Object> properties = specProperties();
        assertThat(properties)
                .containsEntry("labels", Map.of("type", "object", "additionalProperties", Map.of("type", "string"),
                        "maxProperties", 5))
                .containsEntry("extra", Map.of("type", "object", "x-kubernetes-preserve-unknown-fields", true))
                .containsEntry("raw", Map.of("type", "object", "x-kubernetes-preserve-unknown-fields", true))
                .containsEntry("anything", Map.of("x-kubernetes-preserve-unknown-fields", true))
                .containsEntry("template", Map.of("type", "object", "x-kubernetes-embedded-resource", true,
                        "x-kubernetes-preserve-unknown-fields", true));
    }

    @Test
    void beanValidationConstraintsBecomeSchemaValidations() {
        Map<String, Object> spec = map(map(root(), "properties"), "spec");
        assertThat(spec.get("required")).isEqualTo(List.of("name"));
        assertThat(specProperties())
                .containsEntry("name", Map.of("type", "string", "minLength", 1, "maxLength", 63, "pattern", "[a-z]+"))
                .containsEntry("replicas", Map.of("type", "integer", "format", "int32", "minimum", 0L,
                        "maximum", 10L))
                .containsEntry("suffix", Map.of("type", "string",
                        "allOf", List.of(Map.of("pattern", "[a-z-]+"), Map.of("pattern", ".*[a-z]"))));
    }

    @Test
    void listTypesAndCelRules() {
        Map<String, Object> spec = map(map(root(), "properties"), "spec");
        assertThat(spec.get("x-kubernetes-validations")).isEqualTo(List.of(
                Map.of("rule", "self.minReplicas <= self.replicas", "message", "replicas below minReplicas")));
        assertThat(specProperties())
                .containsEntry("ports", Map.of("type", "array", "minItems", 1,
                        "items", Map.of("type", "object", "required", List.of("name"), "properties", Map.of(
                                "name", Map.of("type", "string"),
                                "number", Map.of("type", "integer", "format", "int32"))),
                        "x-kubernetes-list-type", "map", "x-kubernetes-list-map-keys", List.of("name")))
                .containsEntry("tags", Map.of("type", "array", "items", Map.of("type", "string"),
                        "x-kubernetes-list-type", "set",
                        "x-kubernetes-validations", List.of(Map.of("rule", "self.all(t, t != 'forbidden')"))));
    }

    @Test
    void noNodeCarriesAnEmptyCollectionButTheStatusSubresource() {
        List<String> empty = new ArrayList<>();
        collectEmpty(crd, "", empty);
        assertThat(empty).containsExactly(".spec.versions[0].subresources.status");
    }

    @Test
    void theYamlReadsBackAsTheDefinition() {
        String yaml = CustomResourceDefinitions.yaml(Widget.class);
        assertThat(yaml).startsWith("# Generated by Watchkeeper from dev.watchkeeper.crd.Widget: change the class,"
                + " not this file.\napiVersion: apiextensions.k8s.io/v1\n");
        Map<String, Object> read = new Yaml().load(yaml);
        assertThat(normalised(read)).isEqualTo(normalised(crd));
    }

    @Test
    void recordsAndClassesWithoutStatus() {
        Map<String, Object> gadget = CustomResourceDefinitions.definition(Gadget.class);
        Map<String, Object> version = versionOf(gadget);
        assertThat(version).doesNotContainKeys("subresources", "additionalPrinterColumns");
        assertThat(map(map(map(map(version, "schema"), "openAPIV3Schema"), "properties"), "spec"))
                .isEqualTo(Map.of("type", "object", "properties", Map.of("size", Map.of("type", "integer",
                        "format", "int32", "minimum", 2L))));
        assertThat(map(map(gadget, "spec"), "names")).doesNotContainKey("shortNames").containsEntry("kind", "Gadget");
        assertThat(map(gadget, "spec")).containsEntry("scope", "Cluster");
    }

    @Test
    void aRecursiveTypeIsRefusedNamingThePath() {
        assertThatThrownBy(() -> CustomResourceDefinitions.definition(Tree.class))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(Tree.Node.class.getName() + " contains itself (through Tree > Node): a CRD's structural"
                        + " schema cannot describe a recursive type");
    }

    @Test
    void mainWritesOneFilePerClass(@TempDir Path directory) throws Exception {
        CustomResourceDefinitions.main(new String[] {directory.resolve("crds").toString(), Widget.class.getName(),
                Gadget.class.getName()});

        assertThat(Files.readString(directory.resolve("crds/widgets.test.watchkeeper.dev.yaml")))
                .isEqualTo(CustomResourceDefinitions.yaml(Widget.class));
        assertThat(Files.readString(directory.resolve("crds/gadgets.test.watchkeeper.dev.yaml")))
                .isEqualTo(CustomResourceDefinitions.yaml(Gadget.class));
    }

    @Test
    @SuppressWarnings("unchecked")
    void everyVersionWithItsOwnSchema_theHubStored_andTheConversionWebhook() {
        Map<String, Object> gauges = CustomResourceDefinitions.definition(Gauge.class, new WebhookClientConfig
                .Service("hooks", "ops", 443).conversion(new byte[] {1, 2}));
        List<Map<String, Object>> versions = (List<Map<String, Object>>) map(gauges, "spec").get("versions");

        assertThat(versions).extracting(v -> v.get("name"), v -> v.get("served"), v -> v.get("storage"))
                .containsExactly(tuple("v2", true, true), tuple("v1", true, false));
        assertThat(map(map(map(map(map(versions.get(1), "schema"), "openAPIV3Schema"), "properties"), "spec"),
                "properties")).isEqualTo(Map.of("range", Map.of("type", "string")));
        assertThat(map(map(map(map(map(versions.get(0), "schema"), "openAPIV3Schema"), "properties"), "spec"),
                "properties")).containsOnlyKeys("limits");
        assertThat(map(gauges, "spec").get("conversion")).isEqualTo(Map.of("strategy", "Webhook", "webhook", Map.of(
                "conversionReviewVersions", List.of("v1"), "clientConfig", Map.of("service", Map.of("namespace", "ops",
                        "name", "hooks", "path", "/convert", "port", 443), "caBundle", "AQI="))));
        assertThat(CustomResourceDefinitions.definition(GaugeV1.class, new WebhookClientConfig.Service("hooks", "ops",
                443).conversion(new byte[] {1, 2}))).as("the CRD of the resource a version belongs to")
                .isEqualTo(gauges);
    }

    @Test
    void severalVersionsNeedTheConversionWebhooksAddress() {
        assertThatThrownBy(() -> CustomResourceDefinitions.definition(Gauge.class))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(Gauge.class.getName() + " has the versions [v2, v1]: its CRD needs the conversion"
                        + " webhook's service or URL (definition(type, conversion), or"
                        + " --conversion-service=<namespace>/<name> for main)");
    }

    @Test
    void aVersionOfAnotherKindIsRefusedSayingWhatToSet() {
        assertThatThrownBy(() -> CustomResourceDefinitions.definition(Meter.class, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(MeterV1.class.getName() + " (in @StorageVersion of " + Meter.class.getName() + ") must"
                        + " have the group, plural, kind and scope of Meter (test.watchkeeper.dev, meters, Meter,"
                        + " namespaced); set kind = \"Meter\" when the class is named otherwise");
    }

    @KubernetesResource(group = "test.watchkeeper.dev", version = "v2", plural = "meters")
    @StorageVersion(otherVersions = MeterV1.class)
    static class Meter extends Unannotated {
    }

    @KubernetesResource(group = "test.watchkeeper.dev", version = "v1", plural = "meters")
    static class MeterV1 extends Unannotated implements Convertible<Meter> {

        @Override
        public Meter toHub() {
            return new Meter();
        }

        @Override
        public void fromHub(Meter hub) {
        }
    }

    @Test
    void mainTakesTheConversionServiceBeforeTheClasses(@TempDir Path directory) throws Exception {
        CustomResourceDefinitions.main(new String[] {directory.toString(), "--conversion-service=ops/hooks",
                Gauge.class.getName()});

        assertThat(Files.readString(directory.resolve("gauges.test.watchkeeper.dev.yaml"))).isEqualTo(
                CustomResourceDefinitions.yaml(Gauge.class, new WebhookClientConfig.Service("hooks", "ops", 443)
                        .conversion(null)));
    }

    @Test
    void aSizeOnANumberIsRefused() {
        assertThatThrownBy(() -> CustomResourceDefinitions.definition(Sized.class))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("@Size on ").hasMessageEndingWith("count, which is no string, list or map");
    }

    @KubernetesResource(group = "test.watchkeeper.dev", version = "v1", plural = "sizeds")
    static class Sized extends Unannotated {

        @jakarta.validation.constraints.Size(max = 3)
        int count;
    }

    @Test
    void aClassWithoutTheAnnotationIsRefused() {
        assertThatThrownBy(() -> CustomResourceDefinitions.definition(Unannotated.class))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(Unannotated.class.getName() + " needs @KubernetesResource with a group for a CRD");
    }

    @KubernetesResource(group = "test.watchkeeper.dev", version = "v1", plural = "gadgets", namespaced = false)
    record Gadget(String apiVersion, String kind, V1ObjectMeta metadata, GadgetSpec spec) implements KubernetesObject {

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

    record GadgetSpec(@jakarta.validation.constraints.Min(2) int size) {
    }

    @KubernetesResource(group = "test.watchkeeper.dev", version = "v1", plural = "trees")
    static class Tree extends Unannotated {

        Node root;

        static class Node {
            List<Node> children;
        }
    }

    static class Unannotated implements KubernetesObject {

        @Override
        public V1ObjectMeta getMetadata() {
            return null;
        }

        @Override
        public String getApiVersion() {
            return null;
        }

        @Override
        public String getKind() {
            return null;
        }
    }

    private Map<String, Object> version() {
        return versionOf(crd);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> versionOf(Map<String, Object> definition) {
        return ((List<Map<String, Object>>) map(definition, "spec").get("versions")).get(0);
    }

    private Map<String, Object> root() {
        return map(map(version(), "schema"), "openAPIV3Schema");
    }

    private Map<String, Object> specProperties() {
        return map(map(map(root(), "properties"), "spec"), "properties");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Map<String, Object> map, String key) {
        return (Map<String, Object>) map.get(key);
    }

    private static void collectEmpty(Object node, String path, List<String> empty) {
        if (node instanceof Map<?, ?> map) {
            if (map.isEmpty()) {
                empty.add(path);
            }
            map.forEach((key, value) -> collectEmpty(value, path + "." + key, empty));
        } else if (node instanceof List<?> list) {
            if (list.isEmpty()) {
                empty.add(path);
            }
            for (int i = 0; i < list.size(); i++) {
                collectEmpty(list.get(i), path + "[" + i + "]", empty);
            }
        }
    }

    /** Numbers as longs: YAML reads back the integers Java wrote as ints or longs as one type. */
    private static Object normalised(Object node) {
        if (node instanceof Map<?, ?> map) {
            Map<Object, Object> copy = new java.util.LinkedHashMap<>();
            map.forEach((key, value) -> copy.put(key, normalised(value)));
            return copy;
        }
        if (node instanceof List<?> list) {
            return list.stream().map(CustomResourceDefinitionsTest::normalised).toList();
        }
        return node instanceof Integer || node instanceof Long ? ((Number) node).longValue() : node;
    }
}
