package dev.watchkeeper.test.apiserver;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * What kube-controller-manager's garbage collector does, on one background thread fed by the store's events:
 * <ul>
 *   <li>an object whose ownerReferences all point to objects that are gone (by uid) is deleted (background);
 *       one with a live owner left loses its dangling references instead;</li>
 *   <li>an owner deleted with propagationPolicy Orphan ({@code orphan} finalizer): its dependents lose their
 *       reference to it, then the finalizer is removed;</li>
 *   <li>an owner deleted with propagationPolicy Foreground ({@code foregroundDeletion} finalizer): its dependents
 *       are deleted, and the finalizer is removed once none with {@code blockOwnerDeletion: true} is left.</li>
 * </ul>
 * An owner is looked up as the real collector does: by apiVersion, kind and name (in the dependent's namespace
 * when namespaced), and must have the referenced uid; a reference to an unknown kind, or from a cluster-scoped
 * object to a namespaced kind (which the real collector cannot resolve), is left alone.
 */
final class GarbageCollector implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(GarbageCollector.class);
    private static final FieldManager.Writer WRITER = new FieldManager.Writer("kube-controller-manager", null);

    private final ApiOperations operations;
    private final ExecutorService worker;
    /** Owner uid to its dependents; touched by the worker thread only. */
    private final Map<String, Set<ObjectRef>> dependents = new HashMap<>();

    GarbageCollector(ApiOperations operations, ThreadFactory threads) {
        this.operations = operations;
        this.worker = Executors.newSingleThreadExecutor(threads);
        operations.store().listen(event -> {
            try {
                worker.execute(() -> process(event));
            } catch (RejectedExecutionException e) {
                log.debug("the server is closing; no collection after {}", event.type());
            }
        });
    }

    @Override
    public void close() {
        worker.shutdownNow();
        try {
            worker.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** An object of a resource by namespace and name, and its uid. */
    private record ObjectRef(String groupResource, StoredKey key, String uid) {
    }

    private void process(StoredEvent event) {
        try {
            JsonObject object = event.object();
            Optional<ApiResource> resource = resource(event.groupResource());
            if (resource.isEmpty()) {
                return;
            }
            ObjectRef ref = refOf(event.groupResource(), object);
            if (event.type().equals("DELETED")) {
                forgetOwners(ref, object);
                Set<ObjectRef> orphans = dependents.remove(ref.uid());
                if (orphans != null) {
                    orphans.forEach(this::attemptToDelete);
                }
                for (JsonObject owner : ownerReferences(object)) {
                    ownerOf(ref, owner).ifPresent(this::processDeleting);
                }
                return;
            }
            forgetOwners(ref, event.previous());
            ownerUids(object).forEach(owner -> dependents.computeIfAbsent(owner, o -> new LinkedHashSet<>()).add(ref));
            if (!ownerUids(object).isEmpty()) {
                attemptToDelete(ref);
            }
            processDeleting(ref);
        } catch (RuntimeException e) {
            log.warn("garbage collection after {} failed", event.type(), e);
        }
    }

    /** Deletes a dependent whose owners are all gone, or drops its references to gone or foreground-deleting owners. */
    private void attemptToDelete(ObjectRef ref) {
        Optional<JsonObject> current = current(ref);
        if (current.isEmpty()) {
            return;
        }
        JsonObject object = current.get();
        JsonObject metadata = Json.object(object, "metadata");
        if (metadata.has("deletionTimestamp") && !Finalizers.of(object).contains(Finalizers.FOREGROUND)) {
            return;
        }
        List<String> solid = new ArrayList<>();
        List<String> gone = new ArrayList<>();
        for (JsonObject owner : ownerReferences(object)) {
            switch (ownerState(ref, owner)) {
                case LIVE -> solid.add(Json.string(owner, "uid"));
                case GONE, DELETING_DEPENDENTS -> gone.add(Json.string(owner, "uid"));
                case UNKNOWN -> solid.add(Json.string(owner, "uid"));
            }
        }
        ApiResource resource = resource(ref.groupResource()).orElseThrow();
        if (!solid.isEmpty()) {
            if (!gone.isEmpty()) {
                removeReferences(resource, ref, gone);
            }
            return;
        }
        if (!gone.isEmpty() && !metadata.has("deletionTimestamp")) {
            delete(resource, ref);
        }
    }

    /** Finishes an orphan or foreground deletion of an owner when its dependents allow. */
    private void processDeleting(ObjectRef ref) {
        Optional<JsonObject> current = current(ref);
        if (current.isEmpty() || !Json.object(current.get(), "metadata").has("deletionTimestamp")) {
            return;
        }
        List<String> finalizers = Finalizers.of(current.get());
        ApiResource resource = resource(ref.groupResource()).orElseThrow();
        if (finalizers.contains(Finalizers.ORPHAN)) {
            for (ObjectRef dependent : List.copyOf(dependents.getOrDefault(ref.uid(), Set.of()))) {
                removeReferences(resource(dependent.groupResource()).orElseThrow(), dependent, List.of(ref.uid()));
            }
            removeFinalizer(resource, ref, Finalizers.ORPHAN);
        } else if (finalizers.contains(Finalizers.FOREGROUND)) {
            boolean blocked = false;
            for (ObjectRef dependent : List.copyOf(dependents.getOrDefault(ref.uid(), Set.of()))) {
                Optional<JsonObject> object = current(dependent);
                if (object.isPresent()) {
                    attemptToDelete(dependent);
                    blocked |= blocks(object.get(), ref.uid()) && current(dependent).isPresent();
                }
            }
            if (!blocked) {
                removeFinalizer(resource, ref, Finalizers.FOREGROUND);
            }
        }
    }

    private enum OwnerState { LIVE, GONE, DELETING_DEPENDENTS, UNKNOWN }

    private OwnerState ownerState(ObjectRef dependent, JsonObject reference) {
        Optional<ApiResource> ownerResource = operations.registry()
                .findByKind(Json.string(reference, "apiVersion"), Json.string(reference, "kind"));
        if (ownerResource.isEmpty()) {
            return OwnerState.UNKNOWN;
        }
        String namespace = dependent.key().namespace();
        if (ownerResource.get().namespaced() && (namespace == null || namespace.isEmpty())) {
            return OwnerState.UNKNOWN; // a cluster-scoped object cannot be owned by a namespaced one: never collected
        }
        Optional<JsonObject> owner = operations.get(ownerResource.get(), dependent.key().namespace(),
                Json.string(reference, "name"));
        if (owner.isEmpty() || !Json.string(reference, "uid").equals(
                Json.string(Json.object(owner.get(), "metadata"), "uid"))) {
            return OwnerState.GONE;
        }
        boolean foreground = Json.object(owner.get(), "metadata").has("deletionTimestamp")
                && Finalizers.of(owner.get()).contains(Finalizers.FOREGROUND);
        return foreground ? OwnerState.DELETING_DEPENDENTS : OwnerState.LIVE;
    }

    private void delete(ApiResource resource, ObjectRef ref) {
        JsonObject options = new JsonObject();
        JsonObject preconditions = new JsonObject();
        preconditions.addProperty("uid", ref.uid());
        options.add("preconditions", preconditions);
        ignoreGone(() -> operations.delete(resource, ref.key().namespace(), ref.key().name(), options));
    }

    private void removeReferences(ApiResource resource, ObjectRef ref, List<String> ownerUids) {
        ignoreGone(() -> operations.update(resource, ref.key().namespace(), ref.key().name(), current -> {
            JsonObject metadata = Json.ensureObject(current, "metadata");
            JsonArray kept = new JsonArray();
            ownerReferences(current).stream()
                    .filter(owner -> !ownerUids.contains(Json.string(owner, "uid")))
                    .forEach(kept::add);
            metadata.add("ownerReferences", kept);
            return current;
        }, WRITER));
    }

    private void removeFinalizer(ApiResource resource, ObjectRef ref, String finalizer) {
        ignoreGone(() -> operations.update(resource, ref.key().namespace(), ref.key().name(), current -> {
            List<String> finalizers = Finalizers.of(current);
            finalizers.remove(finalizer);
            Finalizers.set(current, finalizers);
            return current;
        }, WRITER));
    }

    private static boolean blocks(JsonObject dependent, String ownerUid) {
        return ownerReferences(dependent).stream().anyMatch(owner -> ownerUid.equals(Json.string(owner, "uid"))
                && owner.has("blockOwnerDeletion") && owner.get("blockOwnerDeletion").getAsBoolean());
    }

    private void forgetOwners(ObjectRef ref, JsonObject previous) {
        if (previous == null) {
            return;
        }
        for (String owner : ownerUids(previous)) {
            Set<ObjectRef> set = dependents.get(owner);
            if (set != null) {
                set.remove(ref);
                if (set.isEmpty()) {
                    dependents.remove(owner);
                }
            }
        }
    }

    /** The owner a reference of {@code dependent} names, when its kind is known. */
    private Optional<ObjectRef> ownerOf(ObjectRef dependent, JsonObject reference) {
        return operations.registry().findByKind(Json.string(reference, "apiVersion"), Json.string(reference, "kind"))
                .map(r -> new ObjectRef(r.groupResource(), new StoredKey(r.namespaced() ? dependent.key().namespace()
                        : "", Json.string(reference, "name")), Json.string(reference, "uid")));
    }

    private Optional<JsonObject> current(ObjectRef ref) {
        return resource(ref.groupResource())
                .flatMap(r -> operations.get(r, ref.key().namespace(), ref.key().name()))
                .filter(o -> ref.uid().equals(Json.string(Json.object(o, "metadata"), "uid")));
    }

    private Optional<ApiResource> resource(String groupResource) {
        int dot = groupResource.indexOf('.');
        String plural = dot < 0 ? groupResource : groupResource.substring(0, dot);
        String group = dot < 0 ? "" : groupResource.substring(dot + 1);
        return operations.registry().findAnyVersion(group, plural);
    }

    private static ObjectRef refOf(String groupResource, JsonObject object) {
        JsonObject metadata = Json.object(object, "metadata");
        return new ObjectRef(groupResource, new StoredKey(Objects.toString(Json.string(metadata, "namespace"), ""),
                Json.string(metadata, "name")), Json.string(metadata, "uid"));
    }

    private static List<JsonObject> ownerReferences(JsonObject object) {
        List<JsonObject> owners = new ArrayList<>();
        JsonElement list = Json.object(object, "metadata").get("ownerReferences");
        if (list != null && list.isJsonArray()) {
            list.getAsJsonArray().forEach(o -> {
                if (o.isJsonObject() && Json.string(o.getAsJsonObject(), "uid") != null) {
                    owners.add(o.getAsJsonObject());
                }
            });
        }
        return owners;
    }

    private static List<String> ownerUids(JsonObject object) {
        return ownerReferences(object).stream().map(o -> Json.string(o, "uid")).toList();
    }

    /** Runs a write the collector decided on; the object may have changed or gone meanwhile, as on a real cluster. */
    private static void ignoreGone(Runnable write) {
        try {
            write.run();
        } catch (StatusException e) {
            if (e.code() != 404 && e.code() != 409) {
                throw e;
            }
        }
    }
}
