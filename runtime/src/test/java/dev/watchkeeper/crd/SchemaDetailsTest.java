package dev.watchkeeper.crd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.watchkeeper.annotation.Default;
import dev.watchkeeper.annotation.KubernetesResource;
import dev.watchkeeper.annotation.PreserveUnknownFields;
import io.kubernetes.client.common.KubernetesObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Descriptions from Javadoc, defaults, nullable, the wider Bean Validation mapping and preserved unknown fields. */
class SchemaDetailsTest {

    private final Map<String, Object> root = root(Sprocket.class);

    @Test
    void javadocKeptAtCompileTimeDescribesTheResourceItsFieldsAndTheirClasses() {
        assertThat(root.get("description"))
                .isEqualTo("A part that turns. Its Javadoc is kept by the watchkeeper-crd-processor at compile time.");
        assertThat(map(properties(root), "spec").get("description"))
                .as("a field's own text before its class's").isEqualTo("What the sprocket should be.");
        assertThat(spec().get("teeth").get("description")).isEqualTo("How many teeth it has, counted at the rim.");
        assertThat(spec().get("name").get("description")).isEqualTo("A name with a visible character.");
        assertThat(spec().get("wear")).doesNotContainKey("description");
        Map<String, Object> finish = spec().get("finish");
        assertThat(finish.get("description")).as("the field's class's text").isEqualTo("The surface.");
        assertThat(properties(finish)).containsEntry("flat", Map.of("description", "whether it is flat",
                "type", "boolean")).containsEntry("depth", Map.of("description",
                "how deep the grooves are, in micrometres", "type", "integer", "format", "int32"));
        assertThat(new ArrayList<>(finish.keySet()).get(0)).as("description first, as by hand")
                .isEqualTo("description");
    }

    @Test
    void defaultsAreTheStringItselfForStringsAndEnumsAndJsonForTheRest() {
        assertThat(spec().get("teeth")).containsEntry("default", 12L);
        assertThat(spec().get("name")).containsEntry("default", "plain");
        assertThat(spec().get("materials")).containsEntry("default", List.of("steel"));
        assertThat(spec().get("finish")).containsEntry("default", Map.of("flat", true, "depth", 2L));
        assertThat(spec().get("fallback")).containsEntry("default", "SQUARE");
        assertThat(spec().get("shape")).as("a field initializer is no default").doesNotContainKey("default");
    }

    @Test
    void aDefaultThatIsNotJsonOrNotAnEnumValueIsRefusedNamingTheField() {
        assertThatThrownBy(() -> CustomResourceDefinitions.definition(BadDefault.class))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("@Default(\"three\") on int count is not JSON");
        assertThatThrownBy(() -> CustomResourceDefinitions.definition(BadEnumDefault.class))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("@Default(\"OVAL\") on dev.watchkeeper.crd.Sprocket$Shape shape is none of [ROUND, SQUARE]");
    }

    @Test
    void numberBoundsKeepTheStrictestAndSayWhenExclusive() {
        assertThat(spec().get("teeth")).containsEntry("minimum", 0L).containsEntry("exclusiveMinimum", true);
        assertThat(spec().get("wear")).isEqualTo(Map.of("type", "integer", "format", "int32", "minimum", 5L,
                "maximum", 100L));
        assertThat(spec().get("ratio")).isEqualTo(Map.of("type", "number", "format", "double", "minimum", 0.5,
                "exclusiveMinimum", true, "maximum", 2.5));
        assertThat(spec().get("offset")).isEqualTo(Map.of("type", "integer", "format", "int64", "maximum", 0L,
                "exclusiveMaximum", true));
    }

    @Test
    void notBlankAndNotEmptyAreRequiredAndRefuseBlankOrEmptyValues() {
        assertThat(map(properties(root), "spec").get("required")).isEqualTo(List.of("name", "materials"));
        assertThat(spec().get("name")).containsEntry("pattern", "\\S");
        assertThat(spec().get("materials")).containsEntry("minItems", 1);
    }

    @Test
    void constraintsOnAListsItemsOrAMapsValuesHoldForEachOfThem() {
        assertThat(spec().get("materials").get("items")).isEqualTo(Map.of("type", "string", "minLength", 2,
                "maxLength", 10, "pattern", "\\S"));
        assertThat(spec().get("counts").get("additionalProperties")).isEqualTo(Map.of("type", "integer",
                "format", "int32", "minimum", 0L, "exclusiveMinimum", true));
    }

    @Test
    void anyAnnotationNamedNullableMakesTheFieldOrItemNullable() {
        assertThat(spec().get("note")).isEqualTo(Map.of("type", "string", "nullable", true));
        assertThat(spec().get("aliases").get("items")).isEqualTo(Map.of("type", "string", "nullable", true));
        assertThat(spec().get("name")).doesNotContainKey("nullable");
    }

    @Test
    void preserveUnknownFieldsOnAFieldOrAClassKeepsTheTypedPropertiesToo() {
        assertThat(spec().get("extension")).containsEntry("x-kubernetes-preserve-unknown-fields", true)
                .containsKey("properties");
        assertThat(spec().get("finish")).doesNotContainKey("x-kubernetes-preserve-unknown-fields");
        Map<String, Object> hub = spec().get("hub");
        assertThat(hub).containsEntry("x-kubernetes-preserve-unknown-fields", true)
                .containsEntry("description", "Keeps what others write.");
        assertThat(properties(hub)).containsEntry("diameter", Map.of("description", "Across, in millimetres.",
                "type", "integer", "format", "int32"));
        assertThatThrownBy(() -> CustomResourceDefinitions.definition(PreservedString.class))
                .isInstanceOf(IllegalArgumentException.class).hasMessageEndingWith("label, which is no object");
    }

    @Test
    void aBoundOnAStringIsRefused() {
        assertThatThrownBy(() -> CustomResourceDefinitions.definition(PositiveString.class))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a number's bound on java.lang.String label, which is no number");
    }

    @KubernetesResource(group = "test.watchkeeper.dev", version = "v1", plural = "baddefaults")
    static class BadDefault extends Sprocket {
        @Default("three")
        int count;
    }

    @KubernetesResource(group = "test.watchkeeper.dev", version = "v1", plural = "badenumdefaults")
    static class BadEnumDefault extends Sprocket {
        @Default("OVAL")
        Shape shape;
    }

    @KubernetesResource(group = "test.watchkeeper.dev", version = "v1", plural = "preservedstrings")
    static class PreservedString extends Sprocket {
        @PreserveUnknownFields
        String label;
    }

    @KubernetesResource(group = "test.watchkeeper.dev", version = "v1", plural = "positivestrings")
    static class PositiveString extends Sprocket {
        @jakarta.validation.constraints.Positive
        String label;
    }

    private Map<String, Map<String, Object>> spec() {
        Map<String, Map<String, Object>> typed = new LinkedHashMap<>();
        properties(map(properties(root), "spec")).forEach((name, schema) -> typed.put(name, cast(schema)));
        return typed;
    }

    private static Map<String, Object> root(Class<? extends KubernetesObject> type) {
        Map<String, Object> definition = CustomResourceDefinitions.definition(type);
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> versions = (List<Map<String, Object>>) map(definition, "spec").get("versions");
        return map(map(versions.get(0), "schema"), "openAPIV3Schema");
    }

    private static Map<String, Object> properties(Map<String, Object> schema) {
        return map(schema, "properties");
    }

    private static Map<String, Object> map(Map<String, Object> map, String key) {
        return cast(map.get(key));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> cast(Object value) {
        return (Map<String, Object>) value;
    }
}
