package dev.watchkeeper.test.apiserver;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

import java.security.SecureRandom;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.BinaryOperator;
import java.util.function.UnaryOperator;

/**
 * The verbs on objects, shared by the HTTP handlers and the Java API: defaulting and validation before the
 * {@link ObjectStore}, and making CustomResourceDefinitions serve (or stop serving) their resources.
 */
final class ApiOperations {

    private static final String NAME_CHARS = "bcdfghjklmnpqrstvwxz2456789";

    /** The manager of writes through {@link InMemoryApiServer}'s Java API. */
    static final FieldManager.Writer JAVA_API = new FieldManager.Writer("watchkeeper-test", null);

    /** The built-ins whose DELETE answers with the object rather than a Status, as on the real server. */
    private static final Set<String> RETURN_DELETED_OBJECT =
            Set.of("pods", "podtemplates", "services", "serviceaccounts", "namespaces");

    private final ResourceRegistry registry;
    private final ObjectStore store;
    private final SecureRandom random = new SecureRandom();
    private final Generation generation;

    ApiOperations(ResourceRegistry registry, ObjectStore store) {
        this.registry = registry;
        this.store = store;
        this.generation = new Generation(registry);
    }

    ResourceRegistry registry() {
        return registry;
    }

    ObjectStore store() {
        return store;
    }

    /**
     * Creates an object in {@code namespace} (ignored for cluster-scoped resources, taken from the body when
     * {@code null}), through the Java API.
     */
    JsonObject create(ApiResource resource, String namespace, JsonObject body) {
        return create(resource, namespace, body, JAVA_API);
    }

    /** Creates an object written by {@code writer} (the owner of every field it sets). */
    JsonObject create(ApiResource resource, String namespace, JsonObject body, FieldManager.Writer writer) {
        boolean builtIn = registry.isBuiltIn(resource);
        JsonObject object = EmptyFields.omit(newObject(resource, namespace, body), builtIn);
        return store(resource, EmptyFields.omit(new FieldManager(resource).recordUpdate(null, object, writer), builtIn));
    }

    Optional<JsonObject> get(ApiResource resource, String namespace, String name) {
        return store.get(resource, new StoredKey(resource.namespaced() ? namespace : "", name));
    }

    /** Applies {@code change} to the current object ({@code statusOnly}: of the status subresource), as the Java API. */
    JsonObject update(ApiResource resource, String namespace, String name, UnaryOperator<JsonObject> change,
                      boolean statusOnly) {
        return update(resource, namespace, name, change,
                statusOnly ? new FieldManager.Writer(JAVA_API.manager(), "status") : JAVA_API);
    }

    /** Applies {@code change} to the current object as {@code writer} (a non-apply write). */
    JsonObject update(ApiResource resource, String namespace, String name, UnaryOperator<JsonObject> change,
                      FieldManager.Writer writer) {
        FieldManager fields = new FieldManager(resource);
        return write(resource, namespace, name, change, writer, (current, next) -> {
            if (writer.subresource() != null) {
                // As the real server does for subresources: the request cannot set managedFields.
                Json.copyMember(Json.object(current, "metadata"), Json.ensureObject(next, "metadata"),
                        "managedFields");
            }
            return fields.recordUpdate(current, next, writer);
        });
    }

    /** A PUT: the body replaces the object; its name must match. */
    JsonObject replace(ApiResource resource, String namespace, String name, JsonObject body, boolean statusOnly) {
        return replace(resource, namespace, name, body,
                statusOnly ? new FieldManager.Writer(JAVA_API.manager(), "status") : JAVA_API);
    }

    /** A PUT by {@code writer}: the body replaces the object; its name must match. */
    JsonObject replace(ApiResource resource, String namespace, String name, JsonObject body,
                       FieldManager.Writer writer) {
        checkKind(resource, body);
        checkName(body, name);
        if (isCustomResourceDefinition(resource) && writer.subresource() == null) {
            ResourceRegistry.fromCustomResourceDefinition(body);
        }
        return update(resource, namespace, name, current -> body.deepCopy(), writer);
    }

    /**
     * A server-side apply of {@code config} by {@code writer}: creates the object when absent.
     *
     * @return the stored object, and whether it was created
     * @throws StatusException 400 for a configuration without apiVersion and kind or with managedFields, 409
     *                         Conflict when it changes fields other managers own and {@code force} is false
     */
    Applied apply(ApiResource resource, String namespace, String name, JsonObject config,
                  FieldManager.Writer writer, boolean force) {
        String apiVersion = Objects.requireNonNullElse(Json.string(config, "apiVersion"), "");
        String kind = Objects.requireNonNullElse(Json.string(config, "kind"), "");
        if (apiVersion.isEmpty() || kind.isEmpty()) {
            throw Statuses.badRequest("invalid object type: " + (apiVersion.contains("/") ? "" : "/") + apiVersion
                    + ", Kind=" + kind);
        }
        if (Json.object(config, "metadata").has("managedFields")) {
            throw Statuses.badRequest("metadata.managedFields must be nil");
        }
        checkKind(resource, config);
        checkName(config, name);
        FieldManager fields = new FieldManager(resource);
        if (get(resource, namespace, name).isEmpty() && writer.subresource() == null) {
            JsonObject object = newObject(resource, namespace, withName(config, name));
            JsonObject created = store(resource,
                    EmptyFields.omit(fields.apply(null, object, writer, force), registry.isBuiltIn(resource)));
            return new Applied(created, true);
        }
        return new Applied(write(resource, namespace, name, current -> fields.apply(current, config, writer, force),
                writer, (current, next) -> next), false);
    }

    /** The object an apply stored, and whether the apply created it. */
    record Applied(JsonObject object, boolean created) {
    }

    /**
     * Deletes an object. With finalizers (its own, or {@code orphan} / {@code foregroundDeletion} that the options'
     * propagationPolicy adds) it is only marked: deletionTimestamp set, kept until its finalizers are removed.
     * Deleting a CustomResourceDefinition stops serving its resource and drops its objects.
     *
     * @param options a DeleteOptions body: {@code preconditions} ({@code uid}, {@code resourceVersion}),
     *                {@code propagationPolicy} or {@code orphanDependents}
     */
    ObjectStore.Deletion delete(ApiResource resource, String namespace, String name, JsonObject options) {
        StoredKey key = new StoredKey(resource.namespaced() ? namespace : "", name);
        JsonObject preconditions = Json.object(options, "preconditions");
        String policy = propagationPolicy(options);
        ObjectStore.Deletion deletion = store.delete(resource, key, current -> {
            JsonObject metadata = Json.object(current, "metadata");
            for (String field : List.of("uid", "resourceVersion")) {
                String expected = Json.string(preconditions, field);
                if (expected != null && !expected.equals(Json.string(metadata, field))) {
                    throw Statuses.conflict(resource.plural(), name);
                }
            }
            if (metadata.has("deletionTimestamp")) {
                return current;
            }
            List<String> finalizers = Finalizers.of(current);
            if (policy != null) {
                finalizers.remove(Finalizers.ORPHAN);
                finalizers.remove(Finalizers.FOREGROUND);
                if (!policy.equals("Background")) {
                    finalizers.add(policy.equals("Orphan") ? Finalizers.ORPHAN : Finalizers.FOREGROUND);
                }
            }
            if (finalizers.isEmpty()) {
                return null;
            }
            Finalizers.set(current, finalizers);
            metadata.addProperty("deletionTimestamp", now());
            metadata.addProperty("deletionGracePeriodSeconds", 0);
            if (metadata.has("generation")) {
                metadata.addProperty("generation", metadata.get("generation").getAsLong() + 1);
            }
            return current;
        });
        if (deletion.removed() && isCustomResourceDefinition(resource)) {
            unserve(deletion.object());
        }
        return deletion;
    }

    /** What a DELETE answers: the object while it waits for finalizers, else a Success Status or, for a few kinds, the object. */
    static JsonObject deleteAnswer(ApiResource resource, ObjectStore.Deletion deletion) {
        boolean returnsObject = resource.group().isEmpty() && RETURN_DELETED_OBJECT.contains(resource.plural());
        return deletion.removed() && !returnsObject ? Statuses.deleted(resource, deletion.object())
                : Presenter.atVersion(resource, deletion.object());
    }

    private JsonObject write(ApiResource resource, String namespace, String name, UnaryOperator<JsonObject> change,
                             FieldManager.Writer writer, BinaryOperator<JsonObject> managedFields) {
        StoredKey key = new StoredKey(resource.namespaced() ? namespace : "", name);
        boolean builtIn = registry.isBuiltIn(resource);
        JsonObject updated = store.update(resource, key, change, writer.subresource() != null, (current, next) -> {
            EmptyFields.omit(next, builtIn);
            SecretStrings.merge(resource, next);
            Finalizers.checkNoneAdded(resource, current, next);
            Long nextGeneration = generation.next(resource, current, next);
            if (nextGeneration != null) {
                Json.ensureObject(next, "metadata").addProperty("generation", nextGeneration);
            }
            return EmptyFields.omit(managedFields.apply(current, next), builtIn);
        });
        if (isCustomResourceDefinition(resource) && writer.subresource() == null) {
            if (store.get(resource, key).isPresent()) {
                serve(updated);
            } else {
                unserve(updated);
            }
        }
        return updated;
    }

    /** Validates and defaults a new object's identity; stamps its generation when the resource has one. */
    private JsonObject newObject(ApiResource resource, String namespace, JsonObject body) {
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
        for (String serverSet : List.of("resourceVersion", "deletionTimestamp", "deletionGracePeriodSeconds")) {
            metadata.remove(serverSet);
        }
        if (generation.tracked(resource)) {
            metadata.addProperty("generation", 1);
        } else {
            metadata.remove("generation");
        }
        if (isCustomResourceDefinition(resource)) {
            ResourceRegistry.fromCustomResourceDefinition(object);
            markEstablished(object);
        }
        return object;
    }

    private JsonObject store(ApiResource resource, JsonObject object) {
        SecretStrings.merge(resource, object);
        JsonObject created = store.create(resource, key(resource, Json.object(object, "metadata")), object);
        if (isCustomResourceDefinition(resource)) {
            serve(created);
        }
        return created;
    }

    private static String propagationPolicy(JsonObject options) {
        String policy = Json.string(options, "propagationPolicy");
        if (policy != null) {
            if (!List.of("Orphan", "Background", "Foreground").contains(policy)) {
                throw Statuses.badRequest("DeleteOptions.propagationPolicy must be Orphan, Background or Foreground,"
                        + " not " + policy);
            }
            return policy;
        }
        JsonElement orphan = options.get("orphanDependents");
        if (orphan != null && orphan.isJsonPrimitive()) {
            return orphan.getAsBoolean() ? "Orphan" : "Background";
        }
        return null;
    }

    private static void checkName(JsonObject body, String name) {
        String bodyName = Json.string(Json.object(body, "metadata"), "name");
        if (bodyName != null && !bodyName.equals(name)) {
            throw Statuses.badRequest("the name of the object (" + bodyName
                    + ") does not match the name on the URL (" + name + ")");
        }
    }

    private static JsonObject withName(JsonObject config, String name) {
        JsonObject named = config.deepCopy();
        Json.ensureObject(named, "metadata").addProperty("name", name);
        return named;
    }

    private static String now() {
        return Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
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

    private static StoredKey key(ApiResource resource, JsonObject metadata) {
        return new StoredKey(resource.namespaced() ? Json.string(metadata, "namespace") : "",
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
