package dev.watchkeeper.test.apiserver;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.watchkeeper.internal.shard.ShardSelector;
import dev.watchkeeper.internal.store.LabelSelector;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;

/** Serves the verbs on a {@link ResourcePath}: list, watch, get, create, update, patch, delete and /status. */
final class ResourceHandler {

    private static final byte[] COMMA = {','};
    private static final byte[] END_ITEMS = {']', '}'};

    private final ApiOperations operations;
    private final ResourceSchemas schemas;
    private final Faults faults;
    private final Duration bookmarkInterval;
    private final boolean watchList;
    private final Set<String> withoutWatchCache;
    private final boolean shardSelectors;

    ResourceHandler(ApiOperations operations, ResourceSchemas schemas, Faults faults, Duration bookmarkInterval,
                    boolean watchList, Set<String> withoutWatchCache, boolean shardSelectors) {
        this.operations = operations;
        this.schemas = schemas;
        this.faults = faults;
        this.bookmarkInterval = bookmarkInterval;
        this.watchList = watchList;
        this.withoutWatchCache = Set.copyOf(withoutWatchCache);
        this.shardSelectors = shardSelectors;
    }

    void handle(HttpCall call, ResourcePath path) throws IOException {
        ApiResource resource = operations.registry().find(path.group(), path.version(), path.plural())
                .filter(r -> !faults.isHidden(r))
                .orElseThrow(Statuses::resourceNotFound);
        boolean collection = path.name() == null;
        if ((!resource.namespaced() && path.namespace() != null)
                || (resource.namespaced() && !collection && path.namespace() == null)
                || (path.subresource() != null && !(path.subresource().equals("status") && resource.hasStatus()))) {
            throw Statuses.resourceNotFound();
        }
        String verb = verb(call, collection);
        if (faults.isForbidden(resource)) {
            throw Statuses.forbidden(verb, resource.group(), resource.plural(), path.namespace());
        }
        boolean status = path.subresource() != null;
        switch (verb) {
            case "watch" -> watch(call, resource, path);
            case "list" -> list(call, resource, path);
            case "create" -> {
                if (resource.namespaced() && path.namespace() == null) {
                    throw Statuses.methodNotAllowed(call.method());
                }
                FieldValidation validation = FieldValidation.of(call, "CreateOptions");
                JsonObject body = validation.checkBody(resource, schemas.of(resource), requestObject(call, resource));
                JsonObject created = operations.create(resource, path.namespace(), body, Writers.of(call, false));
                warn(call, validation);
                call.respond(201, present(resource, created));
            }
            case "deletecollection" -> call.respond(200, deleteCollection(call, resource, path));
            case "get" -> {
                JsonObject object = operations.get(resource, path.namespace(), path.name())
                        .orElseThrow(() -> Statuses.notFound(resource.plural(), path.name()));
                call.respond(200, TableFormat.requested(call)
                        ? TableFormat.of(List.of(object), new JsonObject(), Instant.now())
                        : MetadataFormat.requested(call) ? MetadataFormat.of(object) : present(resource, object));
            }
            case "update" -> {
                FieldValidation validation = FieldValidation.of(call, "UpdateOptions");
                JsonObject body = validation.checkBody(resource, schemas.of(resource), requestObject(call, resource));
                JsonObject updated = operations.replace(resource, path.namespace(), path.name(), body,
                        Writers.of(call, status));
                warn(call, validation);
                call.respond(200, present(resource, updated));
            }
            case "patch" -> {
                if (ServerSideApply.isApply(call)) {
                    ServerSideApply.handle(call, operations, resource, path);
                    return;
                }
                FieldValidation validation = FieldValidation.of(call, "PatchOptions");
                ResourceSchemas.ResourceSchema schema = schemas.of(resource);
                UnaryOperator<JsonObject> change = patch(call.contentType(), Json.parse(call.body()));
                JsonObject patched = operations.update(resource, path.namespace(), path.name(),
                        current -> validation.checkPatched(schema, change.apply(current)), Writers.of(call, status));
                warn(call, validation);
                call.respond(200, present(resource, patched));
            }
            case "delete" -> call.respond(200, ApiOperations.deleteAnswer(resource, operations.delete(resource,
                    path.namespace(), path.name(), deleteOptions(call.body()))));
            default -> throw Statuses.methodNotAllowed(call.method());
        }
    }

    private static String verb(HttpCall call, boolean collection) {
        return switch (call.method()) {
            case "GET" -> collection ? (call.flag("watch") ? "watch" : "list") : "get";
            case "POST" -> collection ? "create" : "unsupported";
            case "PUT" -> collection ? "unsupported" : "update";
            case "PATCH" -> collection ? "unsupported" : "patch";
            case "DELETE" -> collection ? "deletecollection" : "delete";
            default -> "unsupported";
        };
    }

    private void list(HttpCall call, ApiResource resource, ResourcePath path) throws IOException {
        WatchFilter filter = filter(call, path);
        ObjectStore store = operations.store();
        String version = call.param("resourceVersion");
        if ("Exact".equals(call.param("resourceVersionMatch")) && version == null) {
            throw Statuses.badRequest("resourceVersionMatch=Exact requires a resourceVersion");
        }
        ContinueToken token = null;
        if (call.param("continue") != null) {
            if (version != null) {
                throw Statuses.badRequest("specifying resource version is not allowed when using continue");
            }
            token = ContinueToken.decode(call.param("continue"));
            if (token.resourceVersion() < store.horizon()) {
                throw Statuses.continueExpired();
            }
        }
        // Later pages are served as of the first page's resourceVersion and carry it, as the real server's do.
        StoredPage page = token != null
                ? store.page(resource, filter, token.lastKey(), call.longParam("limit"), token.resourceVersion())
                : store.page(resource, filter, null, limitOf(call, resource), asOf(call, store));
        long listVersion = page.resourceVersion();
        JsonObject metadata = new JsonObject();
        metadata.addProperty("resourceVersion", Long.toString(listVersion));
        if (page.more()) {
            metadata.addProperty("continue",
                    new ContinueToken(listVersion, StoredKey.of(page.items().get(page.items().size() - 1))).encode());
            if (page.remaining() != null) {
                metadata.addProperty("remainingItemCount", page.remaining());
            }
        }
        if (filter.shard() != null) {
            JsonObject shardInfo = new JsonObject();
            shardInfo.addProperty("selector", filter.shard().toString());
            metadata.add("shardInfo", shardInfo);
        }
        if (TableFormat.requested(call)) {
            call.respond(200, TableFormat.of(page.items(), metadata, Instant.now()));
            return;
        }
        if (MetadataFormat.requested(call)) {
            call.respond(200, MetadataFormat.list(page.items(), metadata));
            return;
        }
        call.respond(200, encodedListBody(resource, metadata, page));
    }

    /** The real server serves a list at any version ({@code 0}) from its watch cache, which ignores the limit. */
    private long limitOf(HttpCall call, ApiResource resource) {
        boolean fromWatchCache = "0".equals(call.param("resourceVersion"))
                && !withoutWatchCache.contains(resource.groupResource());
        return fromWatchCache ? 0 : call.longParam("limit");
    }

    /**
     * The version a first page is read at, as the real server reads it: the most recent state for a consistent list
     * (no version), any version ({@code 0}) and "not older than" a version it has reached; exactly that version for
     * {@code resourceVersionMatch=Exact} or a paged list that names one (the legacy exact match), 410 once compaction
     * removed it.
     *
     * @throws StatusException 504 with the cause {@code ResourceVersionTooLarge} for a version not reached yet
     */
    private static long asOf(HttpCall call, ObjectStore store) {
        String version = call.param("resourceVersion");
        String match = call.param("resourceVersionMatch");
        if (version == null || version.equals("0")) {
            return Long.MAX_VALUE;
        }
        long requested = call.longParam("resourceVersion");
        if (requested > store.resourceVersion()) {
            throw Statuses.tooLargeResourceVersion(requested, store.resourceVersion());
        }
        boolean exact = "Exact".equals(match) || (match == null && call.longParam("limit") > 0);
        if (!exact) {
            return Long.MAX_VALUE;
        }
        if (requested < store.horizon()) {
            throw Statuses.listTooOld();
        }
        return requested;
    }

    private void watch(HttpCall call, ApiResource resource, ResourcePath path) throws IOException {
        boolean initialEvents = call.flag("sendInitialEvents");
        boolean bookmarks = call.flag("allowWatchBookmarks");
        if (initialEvents && !watchList) {
            throw Statuses.watchListDisabled();
        }
        if (initialEvents && !bookmarks) {
            throw Statuses.badRequest("sendInitialEvents is forbidden for watch unless allowWatchBookmarks=true");
        }
        String version = call.param("resourceVersion");
        if (faults.takeExpiredWatchStart()) {
            throw Statuses.tooOldResourceVersion(version == null ? 0 : Long.parseLong(version),
                    operations.store().resourceVersion());
        }
        Long since = initialEvents || version == null || version.equals("0") ? null : call.longParam("resourceVersion");
        long timeoutSeconds = call.longParam("timeoutSeconds");
        OpenWatch.Options options = new OpenWatch.Options(since, initialEvents, bookmarks,
                timeoutSeconds > 0 ? Duration.ofSeconds(timeoutSeconds) : null, bookmarkInterval,
                MetadataFormat.requested(call));
        new OpenWatch(operations.store(), resource, filter(call, path), options).run(call);
    }

    private JsonObject deleteCollection(HttpCall call, ApiResource resource, ResourcePath path) {
        WatchFilter filter = filter(call, path);
        List<JsonObject> deleted = new ArrayList<>();
        for (JsonObject item : operations.store().list(resource, path.namespace()).items()) {
            if (filter.matches(item)) {
                StoredKey key = StoredKey.of(item);
                deleted.add(operations.delete(resource, key.namespace(), key.name(), new JsonObject()).object());
            }
        }
        JsonObject metadata = new JsonObject();
        metadata.addProperty("resourceVersion", Long.toString(operations.store().resourceVersion()));
        return listBody(resource, metadata, deleted);
    }

    private static UnaryOperator<JsonObject> patch(String contentType, JsonElement patch) {
        if (contentType.startsWith("application/json-patch+json")) {
            return current -> JsonPatch.apply(current, patch);
        }
        boolean strategic = contentType.startsWith("application/strategic-merge-patch+json");
        if (strategic || contentType.startsWith("application/merge-patch+json")) {
            if (!patch.isJsonObject()) {
                throw Statuses.badRequest("a merge patch must be a JSON object");
            }
            return strategic ? current -> StrategicMergePatch.apply(current, patch.getAsJsonObject())
                    : current -> MergePatch.apply(current, patch, false).getAsJsonObject();
        }
        throw new StatusException(StatusException.Reason.UNSUPPORTED_MEDIA_TYPE,
                "the body of the request was in an unknown format (" + contentType + ") - accepted media types include: "
                        + "application/json-patch+json, application/merge-patch+json, "
                        + "application/strategic-merge-patch+json");
    }

    /** The body of a create or update: JSON, or protobuf as kubectl sends built-in kinds. */
    private JsonObject requestObject(HttpCall call, ApiResource resource) throws IOException {
        if (ProtobufBodies.isProtobuf(call.contentType())) {
            return ProtobufBodies.decode(call.exchange().getRequestBody().readAllBytes(), schemas.of(resource));
        }
        return Json.parseObject(call.body());
    }

    private static void warn(HttpCall call, FieldValidation validation) {
        validation.warnings().forEach(warning -> call.exchange().getResponseHeaders().add("Warning", warning));
    }

    private static JsonObject deleteOptions(String body) {
        return body.isBlank() ? new JsonObject() : Json.parseObject(body);
    }

    private WatchFilter filter(HttpCall call, ResourcePath path) {
        LabelSelector labels;
        try {
            String selector = call.param("labelSelector");
            labels = selector == null || selector.isBlank() ? null : LabelSelector.parse(selector);
        } catch (IllegalArgumentException e) {
            throw new StatusException(StatusException.Reason.BAD_REQUEST, e.getMessage());
        }
        return new WatchFilter(path.namespace(), labels, FieldSelector.parse(call.param("fieldSelector")),
                shard(call.param("shardSelector")));
    }

    /**
     * The shard a request selects, {@code null} for all: with the feature gate off, or an empty parameter, the real
     * server ignores it; a malformed one fails the request as a plain error, so with a 500 and no reason.
     */
    private ShardSelector shard(String selector) {
        if (!shardSelectors || selector == null || selector.isEmpty()) {
            return null;
        }
        try {
            return ShardSelector.parse(selector);
        } catch (IllegalArgumentException e) {
            throw Statuses.invalidShardSelector(e.getMessage());
        }
    }

    private static JsonObject listBody(ApiResource resource, JsonObject metadata, List<JsonObject> items) {
        JsonObject list = new JsonObject();
        list.addProperty("kind", resource.listKind());
        list.addProperty("apiVersion", resource.apiVersion());
        list.add("metadata", metadata);
        JsonArray array = new JsonArray();
        items.forEach(item -> array.add(present(resource, item)));
        list.add("items", array);
        return list;
    }

    /**
     * The bytes {@link #listBody} would encode to, spliced from the page's encoded items: the items are most of a
     * list's bytes, and the store keeps them encoded.
     */
    private static List<byte[]> encodedListBody(ApiResource resource, JsonObject metadata, StoredPage page) {
        String envelope = Json.GSON.toJson(listBody(resource, metadata, List.of()));
        String emptyItems = "\"items\":[]}";
        if (!envelope.endsWith(emptyItems)) {
            throw new IllegalStateException("unexpected list envelope: " + envelope);
        }
        String head = envelope.substring(0, envelope.length() - 2);
        List<byte[]> parts = new ArrayList<>(2 * page.items().size() + 2);
        parts.add(head.getBytes(StandardCharsets.UTF_8));
        for (int i = 0; i < page.items().size(); i++) {
            if (i > 0) {
                parts.add(COMMA);
            }
            JsonObject item = page.items().get(i);
            JsonObject shown = present(resource, item);
            parts.add(shown == item ? page.encoded().get(i)
                    : Json.GSON.toJson(shown).getBytes(StandardCharsets.UTF_8));
        }
        parts.add(END_ITEMS);
        return parts;
    }

    private static JsonObject present(ApiResource resource, JsonObject object) {
        return Presenter.atVersion(resource, object);
    }

}
