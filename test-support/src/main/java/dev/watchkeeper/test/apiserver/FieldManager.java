package dev.watchkeeper.test.apiserver;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Keeps {@code metadata.managedFields} as the real server's field manager does. A write that is not an apply
 * ({@code operation: Update}) gives its manager the fields it added or changed and takes them from every other
 * manager; an apply ({@code operation: Apply}) owns exactly the fields of its configuration, conflicts with other
 * owners of a field it changes (unless forced), and removes fields it alone owned and no longer applies.
 *
 * <pre>{@code
 * new FieldManager(schema).apply(resource, live, config, new FieldManager.Writer("alice", null), false);
 * }</pre>
 */
final class FieldManager {

    /** Who writes: the manager name and the subresource written ({@code null} for the object itself). */
    record Writer(String manager, String subresource) {
    }

    private static final String APPLY = "Apply";
    private static final String UPDATE = "Update";
    private static final String METADATA = "f:metadata";

    private final ApiResource resource;
    private final ObjectFields fields;

    FieldManager(ApiResource resource) {
        this.resource = resource;
        this.fields = new ObjectFields(FieldSchema.of(resource));
    }

    /**
     * Sets the managedFields of {@code next} after a non-apply write replacing {@code live} ({@code null} on create).
     */
    JsonObject recordUpdate(JsonObject live, JsonObject next, Writer writer) {
        Map<Identity, Entry> managers = managersOf(live, next);
        ObjectFields.Comparison comparison = fields.compare(owned(live, writer), owned(next, writer));
        // Like the real server, nobody owns the metadata map itself, only fields in it.
        FieldSet changed = comparison.changed().withoutMember(METADATA);
        FieldSet removed = comparison.removed().withoutMember(METADATA);
        Identity me = new Identity(writer.manager(), UPDATE, resource.apiVersion(), writer.subresource());
        takeFromOthers(managers, me, changed, removed);
        Entry previous = managers.get(me);
        FieldSet set = (previous == null ? FieldSet.empty() : previous.fields().minus(removed)).union(changed);
        managers.put(me, new Entry(me, resource.apiVersion(),
                previous != null && sameFields(previous.fields(), set) ? previous.time() : now(), set));
        write(next, managers);
        return next;
    }

    /**
     * The object an apply of {@code config} makes from {@code live} ({@code null}: it creates the object).
     *
     * @throws StatusException 409 Conflict when another manager owns a field the configuration changes
     */
    JsonObject apply(JsonObject live, JsonObject config, Writer writer, boolean force) {
        JsonObject base = live == null ? new JsonObject() : live;
        Map<Identity, Entry> managers = managersOf(base, base);
        Identity me = new Identity(writer.manager(), APPLY, "", writer.subresource());
        Entry last = managers.get(me);
        FieldSet applied = fields.applied(owned(config, writer));
        JsonObject merged = fields.merge(base, config);
        if (last != null) {
            FieldSet others = applied;
            for (Entry entry : managers.values()) {
                others = entry.identity().equals(me) ? others : others.union(entry.fields());
            }
            fields.remove(merged, last.fields().minus(others), others);
        }
        ObjectFields.Comparison comparison = fields.compare(owned(base, writer), owned(merged, writer));
        if (!force) {
            List<Conflict> conflicts = new ArrayList<>();
            for (Entry entry : managers.values()) {
                if (!entry.identity().equals(me)) {
                    FieldSet taken = entry.fields().intersect(comparison.changed());
                    taken.paths().forEach(path -> conflicts.add(new Conflict(entry.identity(), path)));
                }
            }
            if (!conflicts.isEmpty()) {
                throw Statuses.applyConflict(conflicts);
            }
        }
        takeFromOthers(managers, me, comparison.changed(), comparison.removed());
        boolean unchanged = last != null && sameFields(last.fields(), applied) && comparison.changed().isEmpty()
                && comparison.removed().isEmpty();
        managers.put(me, new Entry(me, resource.apiVersion(), unchanged ? last.time() : now(), applied));
        write(merged, managers);
        return merged;
    }

    /** A field another manager owns and an apply would change. */
    record Conflict(Identity owner, String path) {

        /** The owner as the real server names it, e.g. {@code "alice"} or {@code "kubectl" using v1}. */
        String describe() {
            String name = "\"" + owner.manager() + "\"";
            if (owner.subresource() != null) {
                name += " with subresource \"" + owner.subresource() + "\"";
            }
            return owner.operation().equals(UPDATE) ? name + " using " + owner.apiVersion() : name;
        }
    }

    /** An entry's identity: apply entries are one per manager whatever the version, update entries one per version. */
    record Identity(String manager, String operation, String apiVersion, String subresource) {
    }

    private record Entry(Identity identity, String apiVersion, String time, FieldSet fields) {

        Entry with(String newTime, FieldSet newFields) {
            return new Entry(identity, apiVersion, newTime, newFields);
        }
    }

    // ------------------------------------------------------------ managers

    private static void takeFromOthers(Map<Identity, Entry> managers, Identity me, FieldSet changed, FieldSet removed) {
        for (Map.Entry<Identity, Entry> e : managers.entrySet()) {
            if (!e.getKey().equals(me)) {
                Entry entry = e.getValue();
                e.setValue(entry.with(entry.time(), entry.fields().minus(changed).minus(removed)));
            }
        }
    }

    /**
     * The managers to start from: those of {@code next} when the write sent its own (an empty list, or a list of
     * one empty entry, resets them), else those of {@code live}.
     */
    private Map<Identity, Entry> managersOf(JsonObject live, JsonObject next) {
        JsonElement sent = Json.object(next, "metadata").get("managedFields");
        if (sent != null && sent.isJsonArray()) {
            JsonArray entries = sent.getAsJsonArray();
            if (entries.isEmpty() || (entries.size() == 1 && entries.get(0).isJsonObject()
                    && entries.get(0).getAsJsonObject().isEmpty())) {
                return new LinkedHashMap<>();
            }
            return decode(entries);
        }
        JsonElement current = live == null ? null : Json.object(live, "metadata").get("managedFields");
        return current != null && current.isJsonArray() ? decode(current.getAsJsonArray()) : new LinkedHashMap<>();
    }

    private static Map<Identity, Entry> decode(JsonArray entries) {
        Map<Identity, Entry> managers = new LinkedHashMap<>();
        for (JsonElement element : entries) {
            if (!element.isJsonObject()) {
                continue;
            }
            JsonObject entry = element.getAsJsonObject();
            String operation = Objects.requireNonNullElse(Json.string(entry, "operation"), UPDATE);
            Identity identity = new Identity(Objects.requireNonNullElse(Json.string(entry, "manager"), ""),
                    operation, operation.equals(APPLY) ? "" : Json.string(entry, "apiVersion"),
                    Json.string(entry, "subresource"));
            managers.put(identity, new Entry(identity, Json.string(entry, "apiVersion"), Json.string(entry, "time"),
                    FieldSet.fromFieldsV1(Json.object(entry, "fieldsV1"))));
        }
        return managers;
    }

    /** Writes the non-empty entries, ordered as the real server orders them (operation, time, manager, ...). */
    private void write(JsonObject object, Map<Identity, Entry> managers) {
        JsonArray encoded = new JsonArray();
        managers.values().stream()
                .filter(e -> !e.fields().isEmpty())
                .sorted(Comparator.comparing((Entry e) -> e.identity().operation())
                        .thenComparing(e -> Objects.requireNonNullElse(e.time(), ""))
                        .thenComparing(e -> e.identity().manager())
                        .thenComparing(e -> Objects.requireNonNullElse(e.apiVersion(), ""))
                        .thenComparing(e -> Objects.requireNonNullElse(e.identity().subresource(), "")))
                .forEach(e -> encoded.add(encode(e)));
        JsonObject metadata = Json.ensureObject(object, "metadata");
        if (encoded.isEmpty()) {
            metadata.remove("managedFields");
        } else {
            metadata.add("managedFields", encoded);
        }
    }

    private JsonObject encode(Entry entry) {
        JsonObject json = new JsonObject();
        json.addProperty("manager", entry.identity().manager());
        json.addProperty("operation", entry.identity().operation());
        json.addProperty("apiVersion", entry.apiVersion());
        json.addProperty("time", entry.time());
        json.addProperty("fieldsType", "FieldsV1");
        json.add("fieldsV1", entry.fields().toFieldsV1());
        if (entry.identity().subresource() != null) {
            json.addProperty("subresource", entry.identity().subresource());
        }
        return json;
    }

    // ------------------------------------------------------------ tracked fields

    /**
     * The part of an object whose fields are owned: not the identity and server-set metadata, not {@code status}
     * through the object itself when it is a subresource, and only {@code status} through the subresource.
     */
    private JsonObject owned(JsonObject object, Writer writer) {
        JsonObject owned = withoutIdentity(object == null ? new JsonObject() : object);
        if ("status".equals(writer.subresource())) {
            JsonObject status = new JsonObject();
            if (owned.has("status")) {
                status.add("status", owned.get("status"));
            }
            return status;
        }
        if (resource.hasStatus()) {
            owned.remove("status");
        }
        return owned;
    }

    private static JsonObject withoutIdentity(JsonObject object) {
        JsonObject copy = object.deepCopy();
        copy.remove("apiVersion");
        copy.remove("kind");
        JsonObject metadata = Json.object(copy, "metadata");
        for (String field : List.of("name", "namespace", "creationTimestamp", "selfLink", "uid", "generation",
                "managedFields", "resourceVersion", "deletionTimestamp", "deletionGracePeriodSeconds")) {
            metadata.remove(field);
        }
        if (metadata.isEmpty()) {
            copy.remove("metadata");
        }
        return copy;
    }

    private static boolean sameFields(FieldSet a, FieldSet b) {
        return a.toFieldsV1().equals(b.toFieldsV1());
    }

    private static String now() {
        return Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
    }
}
