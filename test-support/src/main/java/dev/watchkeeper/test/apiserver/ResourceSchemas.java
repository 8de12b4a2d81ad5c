package dev.watchkeeper.test.apiserver;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The OpenAPI v3 schema of each served resource, for the OpenAPI documents and for field validation: a custom
 * resource's comes from its CRD's {@code openAPIV3Schema}, a built-in kind's from its client-java model
 * ({@link ModelSchemas}), and a resource served without either (see {@link InMemoryApiServer#serve}) preserves
 * unknown fields.
 */
final class ResourceSchemas {

    private final ApiOperations operations;
    private final Map<Class<?>, ResourceSchema> builtIns = new ConcurrentHashMap<>();

    ResourceSchemas(ApiOperations operations) {
        this.operations = operations;
    }

    /**
     * A resource's schema: the component {@code name} among {@code components} (which holds what it references).
     * The schemas may be shared: read them, never modify them.
     *
     * @param builtIn whether it is a built-in kind, which takes strategic merge patches
     */
    record ResourceSchema(String name, Map<String, JsonObject> components, boolean builtIn) {

        JsonObject root() {
            return components.get(name);
        }

        /** Follows a {@code $ref} (also one wrapped in {@code allOf}, as the real documents wrap them). */
        JsonObject resolve(JsonObject schema) {
            JsonObject resolved = schema;
            if (!resolved.has("$ref") && resolved.has("allOf") && resolved.getAsJsonArray("allOf").size() == 1) {
                resolved = resolved.getAsJsonArray("allOf").get(0).getAsJsonObject();
            }
            String ref = Json.string(resolved, "$ref");
            if (ref != null && ref.startsWith(ModelSchemas.REF_PREFIX)) {
                JsonObject target = components.get(ref.substring(ModelSchemas.REF_PREFIX.length()));
                return target == null ? new JsonObject() : target;
            }
            return resolved;
        }
    }

    ResourceSchema of(ApiResource resource) {
        Optional<JsonObject> crd = customResourceDefinition(resource);
        Optional<Class<?>> model = crd.isPresent() || !isKubernetesGroup(resource.group()) ? Optional.empty()
                : ModelSchemas.modelOf(resource.group(), resource.version(), resource.kind());
        if (model.isPresent()) {
            return builtIns.computeIfAbsent(model.get(), m -> builtIn(resource, m));
        }
        Map<String, JsonObject> components = new LinkedHashMap<>();
        String name = reversedGroup(resource.group()) + resource.version() + "." + resource.kind();
        JsonObject root = customSchema(crd.flatMap(c -> versionSchema(c, resource.version())), components);
        root.add("x-kubernetes-group-version-kind", groupVersionKinds(resource));
        components.put(name, root);
        return new ResourceSchema(name, Map.copyOf(components), false);
    }

    private static ResourceSchema builtIn(ApiResource resource, Class<?> model) {
        Map<String, JsonObject> components = new LinkedHashMap<>();
        ModelSchemas.collect(model, components);
        String name = ModelSchemas.componentName(model);
        JsonObject root = components.get(name).deepCopy();
        root.add("x-kubernetes-group-version-kind", groupVersionKinds(resource));
        components.put(name, root);
        return new ResourceSchema(name, Map.copyOf(components), true);
    }

    private Optional<JsonObject> customResourceDefinition(ApiResource resource) {
        if (resource.group().isEmpty()) {
            return Optional.empty();
        }
        return operations.registry().find(ResourceRegistry.CRD_GROUP, "v1", ResourceRegistry.CRD_PLURAL)
                .flatMap(crds -> operations.get(crds, null, resource.plural() + "." + resource.group()));
    }

    private static Optional<JsonObject> versionSchema(JsonObject crd, String version) {
        for (JsonElement element : Json.object(crd, "spec").getAsJsonArray("versions")) {
            JsonObject served = element.getAsJsonObject();
            if (version.equals(Json.string(served, "name"))) {
                JsonObject schema = Json.object(Json.object(served, "schema"), "openAPIV3Schema");
                return schema.size() == 0 ? Optional.empty() : Optional.of(schema.deepCopy());
            }
        }
        return Optional.empty();
    }

    /**
     * The CRD's schema with apiVersion, kind and metadata declared, as the real server publishes it. A schema that
     * declares no properties at all preserves unknown fields here (the real server would prune every field).
     */
    private static JsonObject customSchema(Optional<JsonObject> declared, Map<String, JsonObject> components) {
        JsonObject schema = declared.orElseGet(JsonObject::new);
        if (!schema.has("properties")) {
            schema.addProperty("x-kubernetes-preserve-unknown-fields", true);
        }
        schema.addProperty("type", "object");
        JsonObject properties = Json.ensureObject(schema, "properties");
        for (String field : new String[] {"apiVersion", "kind"}) {
            JsonObject string = new JsonObject();
            string.addProperty("type", "string");
            properties.add(field, string);
        }
        Class<?> objectMeta = io.kubernetes.client.openapi.models.V1ObjectMeta.class;
        ModelSchemas.collect(objectMeta, components);
        JsonObject metadata = new JsonObject();
        metadata.addProperty("$ref", ModelSchemas.REF_PREFIX + ModelSchemas.componentName(objectMeta));
        properties.add("metadata", metadata);
        return schema;
    }

    private static JsonArray groupVersionKinds(ApiResource resource) {
        JsonArray list = new JsonArray();
        list.add(groupVersionKind(resource));
        return list;
    }

    /** The value of {@code x-kubernetes-group-version-kind} on an operation. */
    static JsonObject groupVersionKind(ApiResource resource) {
        JsonObject gvk = new JsonObject();
        gvk.addProperty("group", resource.group());
        gvk.addProperty("version", resource.version());
        gvk.addProperty("kind", resource.kind());
        return gvk;
    }

    /** Core, dotless groups ({@code apps}) and {@code *.k8s.io} are Kubernetes' own; other groups are custom. */
    private static boolean isKubernetesGroup(String group) {
        return group.isEmpty() || !group.contains(".") || group.endsWith(".k8s.io");
    }

    private static String reversedGroup(String group) {
        StringBuilder reversed = new StringBuilder();
        String[] parts = group.split("\\.");
        for (int i = parts.length - 1; i >= 0; i--) {
            if (!parts[i].isEmpty()) {
                reversed.append(parts[i]).append('.');
            }
        }
        return reversed.toString();
    }
}
