package dev.watchkeeper.internal.reconcile;

import dev.watchkeeper.internal.api.Calls;
import dev.watchkeeper.internal.api.FailedCall;
import dev.watchkeeper.internal.json.ModelGson;
import com.google.gson.Gson;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import dev.watchkeeper.internal.backoff.TimeSource;
import dev.watchkeeper.internal.resource.ResolvedResource;
import dev.watchkeeper.internal.resource.ResourceType;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.Pair;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import dev.watchkeeper.store.ObjectKey;
import okhttp3.Call;

/**
 * The writes a reconciler's context offers (docs/semantics.md §10): server-side apply and a status update that
 * survives conflicts; and the conflict-safe patches that add and remove a reconciler's {@link Finalizer}. Objects
 * are written as client-java serializes them; built-in models, custom {@link KubernetesObject} classes and
 * {@link DynamicKubernetesObject} alike.
 */
final class ObjectWrites {

    /** client-go's {@code retry.DefaultRetry}: 5 attempts, 10 ms apart. */
    static final int STATUS_ATTEMPTS = 5;
    private static final long STATUS_RETRY_MILLIS = 10;
    private static final String APPLY_PATCH = "application/apply-patch+yaml";
    private static final String JSON_PATCH = "application/json-patch+json";
    /** The RBAC verb of each HTTP method this class sends. */
    private static final Map<String, String> VERBS = Map.of("GET", "get", "PUT", "update", "PATCH", "patch",
            "DELETE", "delete");

    private final ApiClient client;
    private final String fieldManager;
    private final ResourceType<?> primaryType;
    private final TimeSource time;
    private final OwnWrites ownWrites;
    /** The key whose reconcile writes, {@code null} when writes are of that key's own object only. */
    private final ObjectKey reconciling;
    private final WriteBudget budget;
    private final Object pauses = new Object();

    /**
     * {@code ownWrites} records the version each write answered, charged to {@code reconciling}'s next reconcile
     * ({@code null}: each write is of the reconciled object itself, charged to its own key); each write first takes
     * a token of {@code budget}.
     */
    ObjectWrites(ApiClient client, String fieldManager, ResourceType<?> primaryType, TimeSource time,
            OwnWrites ownWrites, ObjectKey reconciling, WriteBudget budget) {
        this.client = Objects.requireNonNull(client, "a reconciler without an ApiClient cannot write");
        this.fieldManager = fieldManager;
        this.primaryType = primaryType;
        this.time = time;
        this.ownWrites = ownWrites;
        this.reconciling = reconciling;
        this.budget = budget;
    }

    /**
     * Server-side apply of {@code object} as this reconciler's field manager, taking fields from other managers
     * ({@code force=true}). The body carries {@code apiVersion} and {@code kind} and never {@code managedFields},
     * {@code resourceVersion} or {@code status}.
     */
    <S extends KubernetesObject> S apply(S object) throws ApiException {
        ResolvedResource resource = resourceOf(object);
        JsonObject body = tree(object);
        body.remove("status");
        JsonObject metadata = body.getAsJsonObject("metadata");
        if (metadata != null) {
            metadata.remove("managedFields");
            metadata.remove("resourceVersion");
        }
        body.addProperty("apiVersion", apiVersionOf(object, resource));
        body.addProperty("kind", kindOf(object));
        List<Pair> query = List.of(new Pair("fieldManager", fieldManager), new Pair("force", "true"));
        return send(object, resource, null, "PATCH", query, body.toString(), APPLY_PATCH);
    }

    /** Sets {@code owner} as the controller owner of {@code child} (replacing another controller reference). */
    static void own(KubernetesObject child, KubernetesObject owner, ResourceType<?> ownerType) {
        V1ObjectMeta metadata = child.getMetadata();
        List<V1OwnerReference> references = new ArrayList<>();
        if (metadata.getOwnerReferences() != null) {
            metadata.getOwnerReferences().stream()
                    .filter(reference -> !Boolean.TRUE.equals(reference.getController()))
                    .forEach(references::add);
        }
        references.add(new V1OwnerReference()
                .apiVersion(owner.getApiVersion() != null ? owner.getApiVersion() : ownerType.apiVersion())
                .kind(owner.getKind() != null ? owner.getKind() : ownerType.kind())
                .name(owner.getMetadata().getName())
                .uid(owner.getMetadata().getUid())
                .controller(true)
                .blockOwnerDeletion(true));
        metadata.setOwnerReferences(references);
    }

    /**
     * Applies {@code mutator} to the object and writes its status through the status subresource with the
     * object's resourceVersion. On 409 Conflict it reads the object again and retries, up to
     * {@value #STATUS_ATTEMPTS} attempts; when the mutator leaves the status as it was, nothing is written.
     *
     * @return the object as stored after the write, or as read when nothing changed
     */
    <S extends KubernetesObject> S updateStatus(S object, Consumer<S> mutator)
            throws ApiException, InterruptedException {
        return rewriteStatus(object, json -> {
            S copy = fromJson(json, object);
            mutator.accept(copy);
            return tree(copy);
        });
    }

    /**
     * {@link #updateStatus} with a change of the object's JSON form, as {@link #tree} makes it: {@code change} is
     * handed a copy (of the fresh object after a conflict), may edit it in place, and returns the JSON to write. One
     * serialization of the object per attempt, however many steps the change takes.
     */
    <S extends KubernetesObject> S rewriteStatus(S object, UnaryOperator<JsonObject> change)
            throws ApiException, InterruptedException {
        ResolvedResource resource = resourceOf(object);
        S current = object;
        for (int attempt = 1; ; attempt++) {
            JsonObject before = tree(current);
            JsonObject after = change.apply(before.deepCopy());
            if (Objects.equals(after.get("status"), before.get("status"))) {
                return current;
            }
            try {
                return send(object, resource, "status", "PUT", List.of(), after, "application/json");
            } catch (ApiException e) {
                if (e.getCode() != 409 || attempt == STATUS_ATTEMPTS) {
                    throw e;
                }
            }
            pause();
            current = send(object, resource, null, "GET", List.of(), null, "application/json");
        }
    }

    /** The object as the server holds it now, or {@code null} when it is gone (404). */
    <S extends KubernetesObject> S read(S like) throws ApiException {
        try {
            return send(like, resourceOf(like), null, "GET", List.of(), null, "application/json");
        } catch (ApiException e) {
            if (e.getCode() == 404) {
                return null;
            }
            throw e;
        }
    }

    /**
     * Adds {@code finalizer} to the object with a JSON patch that first tests the object's resourceVersion, so a
     * change since it was read fails the patch (422) instead of being overwritten.
     *
     * @return the object as stored after the patch
     */
    <S extends KubernetesObject> S addFinalizer(S object, String finalizer) throws ApiException {
        V1ObjectMeta metadata = object.getMetadata();
        JsonArray patch = new JsonArray();
        patch.add(operation("test", "/metadata/resourceVersion", new JsonPrimitive(metadata.getResourceVersion())));
        if (metadata.getFinalizers() == null || metadata.getFinalizers().isEmpty()) {
            JsonArray finalizers = new JsonArray();
            finalizers.add(finalizer);
            patch.add(operation("add", "/metadata/finalizers", finalizers));
        } else {
            patch.add(operation("add", "/metadata/finalizers/-", new JsonPrimitive(finalizer)));
        }
        return send(object, resourceOf(object), null, "PATCH", List.of(), patch, JSON_PATCH);
    }

    /**
     * Removes {@code finalizer} from the object with a JSON patch that first tests that the finalizer is still at
     * the index it had when read (as kube-rs does), so a concurrent change of the list fails the patch (422)
     * instead of removing another finalizer. Other changes of the object do not fail it: the cleanup that precedes
     * this patch need not run again for a status change. An object already gone (404) counts as done.
     */
    <S extends KubernetesObject> void removeFinalizer(S object, String finalizer) throws ApiException {
        int index = object.getMetadata().getFinalizers().indexOf(finalizer);
        String path = "/metadata/finalizers/" + index;
        JsonArray patch = new JsonArray();
        patch.add(operation("test", path, new JsonPrimitive(finalizer)));
        patch.add(operation("remove", path, null));
        try {
            send(object, resourceOf(object), null, "PATCH", List.of(), patch, JSON_PATCH);
        } catch (ApiException e) {
            if (e.getCode() != 404) {
                throw e;
            }
        }
    }

    /**
     * Deletes the object if it is still the one read (a {@code uid} precondition, so an object deleted and made again
     * under the name is left alone), in the background as {@code kubectl} does: its own dependents are left to the
     * garbage collector. An object already gone (404) or replaced meanwhile (409) counts as done.
     */
    <S extends KubernetesObject> void delete(S object) throws ApiException {
        JsonObject options = new JsonObject();
        options.addProperty("apiVersion", "v1");
        options.addProperty("kind", "DeleteOptions");
        options.addProperty("propagationPolicy", "Background");
        String uid = object.getMetadata().getUid();
        if (uid != null) {
            JsonObject preconditions = new JsonObject();
            preconditions.addProperty("uid", uid);
            options.add("preconditions", preconditions);
        }
        try {
            send(object, resourceOf(object), null, "DELETE", List.of(), options, "application/json");
        } catch (ApiException e) {
            if (e.getCode() != 404 && e.getCode() != 409) {
                throw e;
            }
        }
    }

    private static JsonObject operation(String op, String path, JsonElement value) {
        JsonObject operation = new JsonObject();
        operation.addProperty("op", op);
        operation.addProperty("path", path);
        if (value != null) {
            operation.add("value", value);
        }
        return operation;
    }

    /**
     * {@code method} on {@code like} in {@code resource} (its {@code subresource} unless {@code null}); a failure is a
     * {@link FailedCall} naming the verb, resource and object.
     */
    private <S extends KubernetesObject> S send(S like, ResolvedResource resource, String subresource, String method,
            List<Pair> query, Object body, String contentType) throws ApiException {
        String path = objectPath(resource, like) + (subresource == null ? "" : "/" + subresource);
        try {
            if (!"GET".equals(method)) {
                budget.acquire(); // inside the try: an interrupted wait fails as this call
            }
            return send(like, method, path, query, body, contentType);
        } catch (ApiException e) {
            V1ObjectMeta metadata = like.getMetadata();
            String object = metadata.getNamespace() == null ? metadata.getName()
                    : metadata.getNamespace() + "/" + metadata.getName();
            throw FailedCall.of(VERBS.get(method), resource.qualifiedName(), subresource, object, e);
        }
    }

    private <S extends KubernetesObject> S send(S like, String method, String path, List<Pair> query, Object body,
            String contentType) throws ApiException {
        Map<String, String> headers = new HashMap<>();
        headers.put("Accept", "application/json");
        headers.put("Content-Type", contentType);
        Call call = client.buildCall(null, path, method, query, List.of(), body, headers, Map.of(), Map.of(),
                new String[] {"BearerToken"}, null);
        if ("GET".equals(method)) {
            return execute(like, call);
        }
        ObjectKey key = ObjectKey.of(like);
        String cachedBefore = ownWrites.cachedVersion(like);
        ownWrites.begin(key);
        S answer = null;
        try {
            if ("DELETE".equals(method)) {
                Calls.body(call); // the object being deleted, or a Status: no version this write made to record
                return null;
            }
            answer = execute(like, call);
            return answer;
        } finally {
            ownWrites.end(key, answer, reconciling, cachedBefore);
        }
    }

    /** The answer decoded as the watchers decode objects ({@link Calls#object}), a dynamic object's too. */
    @SuppressWarnings("unchecked")
    private <S extends KubernetesObject> S execute(S like, Call call) throws ApiException {
        return Calls.object(client, call, (Class<S>) like.getClass());
    }

    /** An object of {@code like}'s class from {@code json}, which a dynamic object takes as its own. */
    @SuppressWarnings("unchecked")
    static <S extends KubernetesObject> S fromJson(JsonObject json, S like) {
        if (like instanceof DynamicKubernetesObject) {
            return (S) new DynamicKubernetesObject(json);
        }
        return (S) gson().fromJson(json, like.getClass());
    }

    /** The object as JSON: a dynamic object's own tree (copied), a model as client-java serializes it. */
    static JsonObject tree(KubernetesObject object) {
        return object instanceof DynamicKubernetesObject dynamic ? dynamic.getRaw().deepCopy()
                : gson().toJsonTree(object).getAsJsonObject();
    }

    /** Where {@code object} lives: its own apiVersion and kind, else its model class, else the primary's type. */
    private ResolvedResource resourceOf(KubernetesObject object) {
        if (object.getClass() == primaryType.javaType() && primaryType.isResolved()) {
            return primaryType.resolved();
        }
        ResourceType<?> type;
        if (object.getApiVersion() != null && object.getKind() != null) {
            String apiVersion = object.getApiVersion();
            int slash = apiVersion.indexOf('/');
            type = new ResourceType<>(DynamicKubernetesObject.class, slash < 0 ? "" : apiVersion.substring(0, slash),
                    apiVersion.substring(slash + 1), object.getKind(), null, null);
        } else {
            type = ResourceType.of(object.getClass());
        }
        boolean namespaced = object.getMetadata() != null && object.getMetadata().getNamespace() != null;
        return new ResolvedResource(type.group(), type.version(), type.likelyPlural(), namespaced);
    }

    private static String objectPath(ResolvedResource resource, KubernetesObject object) {
        V1ObjectMeta metadata = Objects.requireNonNull(object.getMetadata(), "the object has no metadata");
        return resource.collectionPath(metadata.getNamespace()) + "/"
                + Objects.requireNonNull(metadata.getName(), "the object has no metadata.name");
    }

    private static String apiVersionOf(KubernetesObject object, ResolvedResource resource) {
        if (object.getApiVersion() != null) {
            return object.getApiVersion();
        }
        return resource.group().isEmpty() ? resource.version() : resource.group() + "/" + resource.version();
    }

    private String kindOf(KubernetesObject object) {
        String kind = object.getKind() != null ? object.getKind()
                : object.getClass() == primaryType.javaType() ? primaryType.kind()
                : ResourceType.of(object.getClass()).kind();
        if (kind == null) {
            throw new IllegalArgumentException("set apiVersion and kind on the " + object.getClass().getSimpleName()
                    + " to apply: its class does not say them");
        }
        return kind;
    }

    private void pause() throws InterruptedException {
        synchronized (pauses) {
            time.await(pauses, Duration.ofMillis(STATUS_RETRY_MILLIS), () -> false);
        }
    }

    /**
     * The client's Gson, its models read and written by {@link ModelGson}: the same JSON as the client's own adapters
     * write, in one pass instead of a tree per nested model.
     */
    private static Gson gson() {
        return ModelGson.around(JSON.getGson());
    }
}
