package dev.watchkeeper.test.apiserver;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

import java.security.SecureRandom;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * The verbs on objects, shared by the HTTP handlers and the Java API: defaulting and validation before the
 * {@link ObjectStore}, and making CustomResourceDefinitions serve (or stop serving) their resources.
 */
final class ApiOperations {

    private static final String NAME_CHARS = "bcdfghjklmnpqrstvwxz2456789";

    private final ResourceRegistry registry;
    private final ObjectStore store;
    private final SecureRandom random = new SecureRandom();

    ApiOperations(ResourceRegistry registry, ObjectStore store) {
        this.registry = registry;
        this.store = store;
    }

    ResourceRegistry registry() {
        return registry;
    }

    ObjectStore store() {
        return store;
    }

    /**
     * Creates an object in {@code namespace} (ignored for cluster-scoped resources, taken from the body when
     * {@code null}).
     */
    JsonObject create(ApiResource resource, String namespace, JsonObject body) {
        JsonObject object = body.deepCopy();
        checkKind(resource, object);
        object.addProperty("apiVersion", resource.apiVersion());
        object.addProperty("kind", resource.kind());
        JsonObject metadata = Json.ensureObject(object, "metadata");
        String bodyNamespace = Json.string(metadata, "namespace");
        if (resource.namespaced()) {
            if (namespace != null && bodyNamespace != null && !bodyNamespace.equals(namespace)) {
                throw Statuses.badRequest(
                        "the namespace of the provided object does not match the namespace sent on the request");
            }
            String effective = namespace != null ? namespace : bodyNamespace;
            if (effective == null || effective.isEmpty()) {
                throw Statuses.badRequest("a namespace is required to create " + resource.plural());
            }
            metadata.addProperty("namespace", effective);
        } else {
            metadata.remove("namespace");
        }
        String name = Json.string(metadata, "name");
        if (name == null || name.isEmpty()) {
            String prefix = Json.string(metadata, "generateName");
            if (prefix == null || prefix.isEmpty()) {
                throw Statuses.invalid(resource.plural(), "", resource.kind()
                        + " \"\" is invalid: metadata.name: Required value: name or generateName is required");
            }
            name = prefix + randomSuffix();
            metadata.addProperty("name", name);
        }
        metadata.remove("resourceVersion");
        boolean crd = isCustomResourceDefinition(resource);
        if (crd) {
            ResourceRegistry.fromCustomResourceDefinition(object);
            markEstablished(object);
        }
        JsonObject created = store.create(resource, key(resource, metadata), object);
        if (crd) {
            serve(created);
        }
        return created;
    }

    Optional<JsonObject> get(ApiResource resource, String namespace, String name) {
        return store.get(resource, new ObjectKey(resource.namespaced() ? namespace : "", name));
    }

    /** Applies {@code change} to the current object ({@code statusOnly}: of the status subresource). */
    JsonObject update(ApiResource resource, String namespace, String name, UnaryOperator<JsonObject> change,
                      boolean statusOnly) {
        ObjectKey key = new ObjectKey(resource.namespaced() ? namespace : "", name);
        JsonObject updated = store.update(resource, key, change, statusOnly);
        if (isCustomResourceDefinition(resource) && !statusOnly) {
            serve(updated);
        }
        return updated;
    }

    /** A PUT: the body replaces the object; its name must match. */
    JsonObject replace(ApiResource resource, String namespace, String name, JsonObject body, boolean statusOnly) {
        checkKind(resource, body);
        String bodyName = Json.string(Json.object(body, "metadata"), "name");
        if (bodyName != null && !bodyName.equals(name)) {
            throw Statuses.badRequest("the name of the object (" + bodyName
                    + ") does not match the name on the URL (" + name + ")");
        }
        if (isCustomResourceDefinition(resource) && !statusOnly) {
            ResourceRegistry.fromCustomResourceDefinition(body);
        }
        return update(resource, namespace, name, current -> body.deepCopy(), statusOnly);
    }

    /**
     * Removes an object, checking {@code preconditions} ({@code uid}, {@code resourceVersion}) when given.
     * Deleting a CustomResourceDefinition stops serving its resource and drops its objects.
     */
    JsonObject delete(ApiResource resource, String namespace, String name, JsonObject preconditions) {
        ObjectKey key = new ObjectKey(resource.namespaced() ? namespace : "", name);
        JsonObject deleted = store.delete(resource, key, current -> {
            JsonObject metadata = Json.object(current, "metadata");
            for (String field : List.of("uid", "resourceVersion")) {
                String expected = Json.string(preconditions, field);
                if (expected != null && !expected.equals(Json.string(metadata, field))) {
                    throw Statuses.conflict(resource.plural(), name);
                }
            }
            return current;
        });
        if (isCustomResourceDefinition(resource)) {
            unserve(deleted);
        }
        return deleted;
    }

    /** Makes the resources a stored CRD defines servable, replacing those of an earlier version of it. */
    private void serve(JsonObject crd) {
        List<ApiResource> defined = ResourceRegistry.fromCustomResourceDefinition(crd);
        ApiResource first = defined.isEmpty() ? null : defined.get(0);
        if (first != null) {
            registry.unregister(first.group(), first.plural());
            defined.forEach(registry::register);
        }
    }

    private void unserve(JsonObject crd) {
        JsonObject spec = Json.object(crd, "spec");
        String group = Json.string(spec, "group");
        String plural = Json.string(Json.object(spec, "names"), "plural");
        registry.findAnyVersion(group, plural).ifPresent(store::drop);
        registry.unregister(group, plural);
    }

    private static void markEstablished(JsonObject crd) {
        JsonObject spec = Json.object(crd, "spec");
        JsonObject status = new JsonObject();
        JsonArray conditions = new JsonArray();
        conditions.add(condition("NamesAccepted", "NoConflicts", "no conflicts found"));
        conditions.add(condition("Established", "InitialNamesAccepted", "the initial names have been accepted"));
        status.add("conditions", conditions);
        status.add("acceptedNames", Json.object(spec, "names").deepCopy());
        JsonArray stored = new JsonArray();
        for (JsonElement version : spec.getAsJsonArray("versions")) {
            JsonObject v = version.getAsJsonObject();
            if (!v.has("storage") || v.get("storage").getAsBoolean()) {
                stored.add(Json.string(v, "name"));
            }
        }
        status.add("storedVersions", stored);
        crd.add("status", status);
    }

    private static JsonObject condition(String type, String reason, String message) {
        JsonObject condition = new JsonObject();
        condition.addProperty("type", type);
        condition.addProperty("status", "True");
        condition.addProperty("lastTransitionTime", java.time.Instant.now()
                .truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString());
        condition.addProperty("reason", reason);
        condition.addProperty("message", message);
        return condition;
    }

    private static void checkKind(ApiResource resource, JsonObject body) {
        String kind = Json.string(body, "kind");
        if (kind != null && !kind.isEmpty() && !kind.equals(resource.kind())) {
            throw Statuses.badRequest("the kind of the provided object (" + kind + ") does not match the resource ("
                    + resource.kind() + ")");
        }
    }

    private static boolean isCustomResourceDefinition(ApiResource resource) {
        return resource.group().equals(ResourceRegistry.CRD_GROUP)
                && resource.plural().equals(ResourceRegistry.CRD_PLURAL);
    }

    private static ObjectKey key(ApiResource resource, JsonObject metadata) {
        return new ObjectKey(resource.namespaced() ? Json.string(metadata, "namespace") : "",
                Json.string(metadata, "name"));
    }

    private String randomSuffix() {
        StringBuilder suffix = new StringBuilder();
        for (int i = 0; i < 5; i++) {
            suffix.append(NAME_CHARS.charAt(random.nextInt(NAME_CHARS.length())));
        }
        return suffix.toString();
    }
}
