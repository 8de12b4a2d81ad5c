package dev.watchkeeper.test.apiserver;

import com.google.gson.JsonObject;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.BinaryOperator;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * Objects by resource, namespace and name, the global resourceVersion, the {@link EventLog} and the open watches.
 * One lock orders every change, so a watch sees each change exactly once and in resourceVersion order.
 */
final class ObjectStore {

    /** Metadata only the server sets: an update keeps the current values. */
    private static final List<String> SYSTEM_METADATA = List.of("uid", "creationTimestamp", "name", "namespace",
            "resourceVersion", "generation", "deletionTimestamp", "deletionGracePeriodSeconds");

    private final Object lock = new Object();
    private final Map<String, ObjectTable> objects = new HashMap<>();
    private final Set<WatchSink> watches = new HashSet<>();
    private final List<Consumer<StoredEvent>> listeners = new ArrayList<>();
    private final EventLog log;
    private long resourceVersion;

    ObjectStore(int historyCapacity, long initialResourceVersion) {
        this.log = new EventLog(historyCapacity, initialResourceVersion);
        this.resourceVersion = initialResourceVersion;
    }

    long resourceVersion() {
        synchronized (lock) {
            return resourceVersion;
        }
    }

    long horizon() {
        synchronized (lock) {
            return log.horizon();
        }
    }

    Optional<JsonObject> get(ApiResource resource, StoredKey key) {
        synchronized (lock) {
            return Optional.ofNullable(table(resource).get(key));
        }
    }

    /** A consistent list of one resource, in one namespace or all ({@code null}), sorted by namespace and name. */
    Snapshot list(ApiResource resource, String namespace) {
        synchronized (lock) {
            return new Snapshot(resourceVersion, new ArrayList<>(table(resource).values(namespace)));
        }
    }

    /**
     * One page of a list: up to {@code limit} ({@code 0}: all) objects that {@code filter} selects, in namespace
     * and name order, after {@code after} ({@code null}: from the first), as they were at {@code asOf} (at most
     * now). A paged list is one snapshot, as the real server reads every page of it from one etcd revision: the
     * changes made since {@code asOf} are undone from the history.
     *
     * @throws StatusException 410 Expired when the history no longer reaches back to {@code asOf}
     */
    StoredPage page(ApiResource resource, WatchFilter filter, StoredKey after, long limit, long asOf) {
        synchronized (lock) {
            if (asOf >= resourceVersion) {
                return table(resource).page(filter, after, limit, resourceVersion, Collections.emptyNavigableMap());
            }
            return table(resource).page(filter, after, limit, asOf, statesAt(resource, asOf));
        }
    }

    /** Each object changed since {@code resourceVersion} as it was then; a {@code null} value: it did not exist. */
    private NavigableMap<StoredKey, JsonObject> statesAt(ApiResource resource, long resourceVersion) {
        NavigableMap<StoredKey, JsonObject> states = new TreeMap<>();
        for (StoredEvent event : log.since(resourceVersion, resource.groupResource())) {
            StoredKey key = StoredKey.of(event.object());
            if (!states.containsKey(key)) {
                states.put(key, event.previous());
            }
        }
        return states;
    }

    /**
     * Stores a new object, stamping uid, creationTimestamp and resourceVersion.
     *
     * @throws StatusException 409 AlreadyExists
     */
    JsonObject create(ApiResource resource, StoredKey key, JsonObject object) {
        synchronized (lock) {
            ObjectTable table = table(resource);
            if (table.contains(key)) {
                throw Statuses.alreadyExists(resource.plural(), key.name());
            }
            JsonObject stored = object.deepCopy();
            JsonObject metadata = Json.ensureObject(stored, "metadata");
            metadata.addProperty("uid", UUID.randomUUID().toString());
            metadata.addProperty("creationTimestamp", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
            metadata.addProperty("resourceVersion", Long.toString(++resourceVersion));
            table.put(key, stored);
            publish(new StoredEvent(resourceVersion, "ADDED", resource.groupResource(), stored, null));
            return stored;
        }
    }

    /**
     * Replaces an object with {@code change(current)}, the way an update or patch does. An object being deleted
     * whose change leaves no finalizers is removed (a DELETED event carrying its last stored state), as the real
     * server does; the change is then returned with the resourceVersion it was based on.
     *
     * @param statusOnly {@code true} for the status subresource: only {@code .status} is taken from the change
     * @param finish     completes the assembled next state given the current one (generation, managed fields,
     *                   validation; may throw)
     * @throws StatusException 404 NotFound, 409 Conflict when the change carries a stale resourceVersion
     */
    JsonObject update(ApiResource resource, StoredKey key, UnaryOperator<JsonObject> change, boolean statusOnly,
                      BinaryOperator<JsonObject> finish) {
        synchronized (lock) {
            ObjectTable table = table(resource);
            JsonObject current = table.get(key);
            if (current == null) {
                throw Statuses.notFound(resource.plural(), key.name());
            }
            JsonObject candidate = change.apply(current.deepCopy());
            JsonObject candidateMetadata = Json.object(candidate, "metadata");
            JsonObject currentMetadata = Json.object(current, "metadata");
            String sentVersion = Json.string(candidateMetadata, "resourceVersion");
            if (sentVersion != null && !sentVersion.isEmpty()
                    && !sentVersion.equals(Json.string(currentMetadata, "resourceVersion"))) {
                throw Statuses.conflict(resource.plural(), key.name());
            }
            JsonObject next = statusOnly ? current.deepCopy() : candidate;
            if (statusOnly || resource.hasStatus()) {
                Json.copyMember(statusOnly ? candidate : current, next, "status");
            }
            JsonObject metadata = statusOnly ? Json.ensureObject(next, "metadata") : candidateMetadata.deepCopy();
            next.add("metadata", metadata);
            if (statusOnly) {
                Json.copyMember(candidateMetadata, metadata, "managedFields");
            }
            for (String kept : SYSTEM_METADATA) {
                Json.copyMember(currentMetadata, metadata, kept);
            }
            Json.copyMember(current, next, "apiVersion");
            Json.copyMember(current, next, "kind");
            next = finish.apply(current, next);
            if (next.equals(current)) {
                return current;
            }
            if (metadata.has("deletionTimestamp") && !metadata.has("finalizers")) {
                remove(resource, table, key, current);
                return next;
            }
            metadata.addProperty("resourceVersion", Long.toString(++resourceVersion));
            table.put(key, next);
            publish(new StoredEvent(resourceVersion, "MODIFIED", resource.groupResource(), next, current));
            return next;
        }
    }

    /**
     * Deletes an object: {@code decide(current)} checks preconditions (may throw) and returns {@code null} to
     * remove it now, or the state to keep it in while finalizers run (stored with a new resourceVersion unless
     * unchanged).
     *
     * @throws StatusException 404 NotFound
     */
    Deletion delete(ApiResource resource, StoredKey key, UnaryOperator<JsonObject> decide) {
        synchronized (lock) {
            ObjectTable table = table(resource);
            JsonObject current = table.get(key);
            if (current == null) {
                throw Statuses.notFound(resource.plural(), key.name());
            }
            JsonObject kept = decide.apply(current.deepCopy());
            if (kept == null) {
                return new Deletion(remove(resource, table, key, current), true);
            }
            if (kept.equals(current)) {
                return new Deletion(current, false);
            }
            Json.ensureObject(kept, "metadata").addProperty("resourceVersion", Long.toString(++resourceVersion));
            table.put(key, kept);
            publish(new StoredEvent(resourceVersion, "MODIFIED", resource.groupResource(), kept, current));
            return new Deletion(kept, false);
        }
    }

    /** Calls {@code listener} with every change, under the store lock: it must not block or call the store. */
    void listen(Consumer<StoredEvent> listener) {
        synchronized (lock) {
            listeners.add(listener);
        }
    }

    private JsonObject remove(ApiResource resource, ObjectTable table, StoredKey key, JsonObject current) {
        table.remove(key);
        JsonObject deleted = current.deepCopy();
        Json.ensureObject(deleted, "metadata").addProperty("resourceVersion", Long.toString(++resourceVersion));
        publish(new StoredEvent(resourceVersion, "DELETED", resource.groupResource(), deleted, current));
        return deleted;
    }

    /** Forgets every object and the history of a resource, ending its open watches (its CRD was deleted). */
    void drop(ApiResource resource) {
        synchronized (lock) {
            objects.remove(resource.groupResource());
            log.forget(resource.groupResource());
            watches.stream().filter(w -> w.groupResource().equals(resource.groupResource())).forEach(WatchSink::end);
        }
    }

    /**
     * Registers a watch and returns what it must send first: the history after {@code since}, or, when
     * {@code since} is {@code null}, a synthetic ADDED for every current object.
     *
     * @throws StatusException 410 Expired when {@code since} is older than the retained history
     */
    Subscription subscribe(WatchSink sink, Long since) {
        synchronized (lock) {
            List<StoredEvent> initial;
            if (since == null) {
                initial = new ArrayList<>();
                for (JsonObject object : objects.getOrDefault(sink.groupResource(), new ObjectTable()).values(null)) {
                    initial.add(new StoredEvent(resourceVersion, "ADDED", sink.groupResource(), object, null));
                }
            } else {
                initial = log.since(since, sink.groupResource());
            }
            watches.add(sink);
            return new Subscription(resourceVersion, initial);
        }
    }

    void unsubscribe(WatchSink sink) {
        synchronized (lock) {
            watches.remove(sink);
        }
    }

    /** The resourceVersion a bookmark may carry now, or empty while events are still queued for the sink. */
    Optional<Long> bookmarkVersion(WatchSink sink) {
        synchronized (lock) {
            return sink.idle() ? Optional.of(resourceVersion) : Optional.empty();
        }
    }

    /** Drops all history and expires open watches, as an etcd compaction seen by the watch cache would. */
    void compact() {
        synchronized (lock) {
            log.compact(resourceVersion);
            List.copyOf(watches).forEach(w -> w.expire(log.horizon()));
        }
    }

    /** Ends every open watch normally. */
    void endWatches() {
        synchronized (lock) {
            List.copyOf(watches).forEach(WatchSink::end);
        }
    }

    /** Has every open watch do {@code disruption} at once, before the events still queued for it. */
    void disruptWatches(WatchDisruption disruption) {
        synchronized (lock) {
            List.copyOf(watches).forEach(w -> w.disrupt(disruption));
        }
    }

    int openWatches() {
        synchronized (lock) {
            return watches.size();
        }
    }

    private void publish(StoredEvent event) {
        log.append(event);
        listeners.forEach(l -> l.accept(event));
        for (WatchSink sink : watches) {
            if (sink.groupResource().equals(event.groupResource())) {
                sink.offer(event);
            }
        }
    }

    private ObjectTable table(ApiResource resource) {
        return objects.computeIfAbsent(resource.groupResource(), k -> new ObjectTable());
    }

    /** The outcome of a delete: the object's last state, and whether it is gone or waits for finalizers. */
    record Deletion(JsonObject object, boolean removed) {
    }

    /** Objects as of one resourceVersion. */
    record Snapshot(long resourceVersion, List<JsonObject> items) {
    }

    /** What a new watch sends first, and the resourceVersion it was registered at. */
    record Subscription(long resourceVersion, List<StoredEvent> initialEvents) {
    }

    /** The store's view of an open watch. Its methods are called under the store lock and must not block. */
    interface WatchSink {

        String groupResource();

        void offer(StoredEvent event);

        /** Whether no event is queued. */
        boolean idle();

        /** End with a 410 ERROR event: history before {@code horizon} is gone. */
        void expire(long horizon);

        /** End normally. */
        void end();

        /** Do {@code disruption} at once, before the events still queued (see {@link WatchDisruption}). */
        void disrupt(WatchDisruption disruption);
    }
}
