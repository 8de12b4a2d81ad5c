package dev.watchkeeper.test.apiserver;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * Serves OpenAPI v3 as the real server does: the index {@code /openapi/v3} ({@code {"paths":{"api/v1":
 * {"serverRelativeURL":"/openapi/v3/api/v1?hash=…"}}}}) and one document per group-version,
 * {@code /openapi/v3/api/v1} and {@code /openapi/v3/apis/{group}/{version}}, with the paths, operations and
 * schemas of its visible resources.
 *
 * <p>The documents have the real ones' shape, not their content: each operation carries
 * {@code x-kubernetes-action}, {@code x-kubernetes-group-version-kind} and its query parameters (for writes
 * {@code fieldManager} and {@code fieldValidation}, which makes kubectl validate on the server), and a PATCH
 * accepts {@code application/strategic-merge-patch+json} only for built-in kinds, which makes kubectl apply send
 * JSON merge patches for custom resources. Schemas come from {@link ResourceSchemas}; they have no
 * {@code x-kubernetes-patch-merge-key}, so kubectl apply computes strategic merge patches that replace lists whole.
 * {@code dryRun} is not offered, because this server does not honour it.
 */
final class OpenApiHandler {

    static final String PREFIX = "/openapi/v3";
    private static final String PATCH_SCHEMA = "io.k8s.apimachinery.pkg.apis.meta.v1.Patch";

    private final ResourceRegistry registry;
    private final ResourceSchemas schemas;
    private final Predicate<ApiResource> visible;

    OpenApiHandler(ResourceRegistry registry, ResourceSchemas schemas, Predicate<ApiResource> visible) {
        this.registry = registry;
        this.schemas = schemas;
        this.visible = visible;
    }

    /** Whether {@code path} is one this handler answers. */
    static boolean handles(String path) {
        return path.equals(PREFIX) || path.equals(PREFIX + "/") || path.startsWith(PREFIX + "/");
    }

    void handle(HttpCall call) throws IOException {
        if (!call.method().equals("GET")) {
            throw Statuses.methodNotAllowed(call.method());
        }
        String path = call.path().replaceAll("/+$", "");
        if (path.equals(PREFIX)) {
            call.respond(200, index());
            return;
        }
        String groupVersion = path.substring(PREFIX.length() + 1);
        if (!groupVersions().containsKey(groupVersion)) {
            throw Statuses.resourceNotFound();
        }
        call.respond(200, document(groupVersions().get(groupVersion)));
    }

    private JsonObject index() {
        JsonObject paths = new JsonObject();
        groupVersions().forEach((groupVersion, resources) -> {
            JsonObject entry = new JsonObject();
            entry.addProperty("serverRelativeURL", PREFIX + "/" + groupVersion + "?hash=" + hash(document(resources)));
            paths.add(groupVersion, entry);
        });
        JsonObject index = new JsonObject();
        index.add("paths", paths);
        return index;
    }

    /** The visible resources by document path, e.g. {@code api/v1} and {@code apis/apps/v1}. */
    private Map<String, List<ApiResource>> groupVersions() {
        Map<String, List<ApiResource>> result = new TreeMap<>();
        for (ApiResource resource : registry.all()) {
            if (visible.test(resource)) {
                String key = resource.group().isEmpty() ? "api/" + resource.version()
                        : "apis/" + resource.group() + "/" + resource.version();
                result.computeIfAbsent(key, k -> new ArrayList<>()).add(resource);
            }
        }
        return result;
    }

    private JsonObject document(List<ApiResource> resources) {
        JsonObject paths = new JsonObject();
        Map<String, JsonObject> components = new TreeMap<>();
        JsonObject patch = new JsonObject();
        patch.addProperty("type", "object");
        patch.addProperty("description", "Patch is provided to give a concrete name and type to the Kubernetes "
                + "PATCH request body.");
        components.put(PATCH_SCHEMA, patch);
        for (ApiResource resource : resources) {
            ResourceSchemas.ResourceSchema schema = schemas.of(resource);
            components.putAll(schema.components());
            new ResourcePaths(resource, schema).addTo(paths);
        }
        JsonObject info = new JsonObject();
        info.addProperty("title", "Kubernetes");
        info.addProperty("version", "watchkeeper-in-memory");
        JsonObject schemaList = new JsonObject();
        components.forEach(schemaList::add);
        JsonObject componentsObject = new JsonObject();
        componentsObject.add("schemas", schemaList);
        JsonObject document = new JsonObject();
        document.addProperty("openapi", "3.0.0");
        document.add("info", info);
        document.add("paths", paths);
        document.add("components", componentsObject);
        return document;
    }

    private static String hash(JsonObject document) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-512")
                    .digest(Json.GSON.toJson(document).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().withUpperCase().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-512 is a required JDK algorithm", e);
        }
    }

    /** The path items of one resource: its collection(s), its objects and their status. */
    private record ResourcePaths(ApiResource resource, ResourceSchemas.ResourceSchema schema) {

        void addTo(JsonObject paths) {
            String prefix = resource.group().isEmpty() ? "/api/" + resource.version()
                    : "/apis/" + resource.group() + "/" + resource.version();
            String collection = prefix + (resource.namespaced() ? "/namespaces/{namespace}/" : "/")
                    + resource.plural();
            JsonObject collectionItem = pathItem(resource.namespaced() ? List.of("namespace") : List.of());
            collectionItem.add("get", operation("list", "list or watch objects of kind", List.of(), null, false));
            collectionItem.add("post", operation("post", "create a", writeParameters(false), "*/*", true));
            collectionItem.add("delete", operation("deletecollection", "delete collection of", List.of(), null,
                    false));
            paths.add(collection, collectionItem);
            List<String> objectParameters = resource.namespaced() ? List.of("name", "namespace") : List.of("name");
            paths.add(collection + "/{name}", objectItem(objectParameters, true));
            if (resource.hasStatus()) {
                paths.add(collection + "/{name}/status", objectItem(objectParameters, false));
            }
            if (resource.namespaced()) {
                JsonObject allNamespaces = pathItem(List.of());
                allNamespaces.add("get", operation("list", "list or watch objects of kind", List.of(), null, false));
                paths.add(prefix + "/" + resource.plural(), allNamespaces);
            }
        }

        private JsonObject objectItem(List<String> pathParameters, boolean deletable) {
            JsonObject item = pathItem(pathParameters);
            item.add("get", operation("get", "read the specified", List.of(), null, false));
            item.add("put", operation("put", "replace the specified", writeParameters(false), "*/*", true));
            item.add("patch", patchOperation());
            if (deletable) {
                item.add("delete", operation("delete", "delete a", List.of(), null, false));
            }
            return item;
        }

        private JsonObject patchOperation() {
            JsonObject operation = operation("patch", "partially update the specified", writeParameters(true), null,
                    false);
            JsonObject content = new JsonObject();
            List<String> types = schema.builtIn()
                    ? List.of("application/apply-patch+yaml", "application/json-patch+json",
                            "application/merge-patch+json", "application/strategic-merge-patch+json")
                    : List.of("application/apply-patch+yaml", "application/json-patch+json",
                            "application/merge-patch+json");
            for (String type : types) {
                content.add(type, schemaContent(PATCH_SCHEMA));
            }
            JsonObject body = new JsonObject();
            body.add("content", content);
            body.addProperty("required", true);
            operation.add("requestBody", body);
            return operation;
        }

        private JsonObject operation(String action, String description, List<JsonObject> parameters,
                                     String bodyType, boolean created) {
            JsonObject operation = new JsonObject();
            operation.addProperty("description", description + " " + resource.kind());
            operation.addProperty("operationId", action + resource.kind());
            if (!parameters.isEmpty()) {
                JsonArray list = new JsonArray();
                parameters.forEach(list::add);
                operation.add("parameters", list);
            }
            if (bodyType != null) {
                JsonObject content = new JsonObject();
                content.add(bodyType, schemaContent(schema.name()));
                JsonObject body = new JsonObject();
                body.add("content", content);
                body.addProperty("required", true);
                operation.add("requestBody", body);
            }
            JsonObject responses = new JsonObject();
            responses.add("200", response("OK"));
            if (created) {
                responses.add("201", response("Created"));
            }
            operation.add("responses", responses);
            operation.addProperty("x-kubernetes-action", action);
            operation.add("x-kubernetes-group-version-kind", ResourceSchemas.groupVersionKind(resource));
            return operation;
        }

        private JsonObject response(String description) {
            JsonObject content = new JsonObject();
            content.add("application/json", schemaContent(schema.name()));
            JsonObject response = new JsonObject();
            response.addProperty("description", description);
            response.add("content", content);
            return response;
        }

        private static JsonObject schemaContent(String component) {
            JsonObject ref = new JsonObject();
            ref.addProperty("$ref", ModelSchemas.REF_PREFIX + component);
            JsonObject content = new JsonObject();
            content.add("schema", ref);
            return content;
        }

        private static List<JsonObject> writeParameters(boolean patch) {
            List<JsonObject> parameters = new ArrayList<>(List.of(
                    parameter("fieldManager", "query", "fieldManager is a name associated with the actor or entity "
                            + "that is making these changes."),
                    parameter("fieldValidation", "query", "fieldValidation instructs the server on how to handle "
                            + "objects in the request (POST/PUT/PATCH) containing unknown fields: Ignore, Warn "
                            + "(the default) or Strict.")));
            if (patch) {
                JsonObject force = parameter("force", "query", "Force is going to \"force\" Apply requests.");
                force.getAsJsonObject("schema").addProperty("type", "boolean");
                parameters.add(force);
            }
            return parameters;
        }

        private JsonObject pathItem(List<String> pathParameters) {
            JsonArray parameters = new JsonArray();
            for (String name : pathParameters) {
                JsonObject parameter = parameter(name, "path", name.equals("name") ? "name of the "
                        + resource.kind() : "object name and auth scope, such as for teams and projects");
                parameter.addProperty("required", true);
                parameters.add(parameter);
            }
            parameters.add(parameter("pretty", "query", "If 'true', then the output is pretty printed."));
            JsonObject item = new JsonObject();
            item.add("parameters", parameters);
            return item;
        }

        private static JsonObject parameter(String name, String in, String description) {
            JsonObject schema = new JsonObject();
            schema.addProperty("type", "string");
            schema.addProperty("uniqueItems", true);
            JsonObject parameter = new JsonObject();
            parameter.addProperty("name", name);
            parameter.addProperty("in", in);
            parameter.addProperty("description", description);
            parameter.add("schema", schema);
            return parameter;
        }
    }
}
