package dev.watchkeeper.internal.watch.http;

import com.google.gson.Gson;
import com.google.gson.JsonElement;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import dev.watchkeeper.internal.json.JsonFields;
import dev.watchkeeper.internal.json.ModelGson;
import dev.watchkeeper.internal.json.ObjectDecoder;
import dev.watchkeeper.internal.watch.ApiFailure;
import dev.watchkeeper.internal.watch.EventStream;
import dev.watchkeeper.internal.watch.ListPage;
import dev.watchkeeper.internal.watch.ListRequest;
import dev.watchkeeper.internal.watch.WatchApi;
import dev.watchkeeper.internal.watch.WatchRequest;
import dev.watchkeeper.internal.watch.Watcher;
import dev.watchkeeper.internal.watch.WatcherBuilder;
import dev.watchkeeper.internal.resource.BuiltInResources;
import dev.watchkeeper.internal.resource.ResolvedResource;
import dev.watchkeeper.internal.resource.ResourceType;
import dev.watchkeeper.store.CachedObject;
import dev.watchkeeper.internal.watch.WatchOptions;
import dev.watchkeeper.internal.watch.WatchScope;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.Pair;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import okhttp3.Call;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;

/**
 * {@link WatchApi} over real HTTP through the official client: requests are built with
 * {@link ApiClient#buildCall} (so authentication, base path and TLS are the user's), because
 * {@code GenericKubernetesApi} cannot ask for bookmarks, {@code resourceVersionMatch} or {@code sendInitialEvents}.
 * Watches run on a client derived from the user's, with a read timeout of watch timeout + idle margin, so a
 * silent watch is detected; the user's {@code ApiClient} is never modified.
 *
 * <pre>{@code
 * Watcher<V1ConfigMap> watcher = HttpWatchApi.watcher(apiClient, ResourceType.of(V1ConfigMap.class))
 *         .scope(WatchScope.namespace("default"))
 *         .build();
 * }</pre>
 */
public final class HttpWatchApi<T extends KubernetesObject> implements WatchApi<T> {

    private static final String[] AUTH = {"BearerToken"};
    private static final String JSON = "application/json";
    /** What a metadata-only watcher accepts for a list and for a watch: the server then sends metadata only. */
    private static final String METADATA_LIST = "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1";
    private static final String METADATA = "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1";

    private final ApiClient client;
    private final ResourceType<T> type;
    private final WatchScope scope;
    private final WatchOptions options;
    private final OkHttpClient listClient;
    private final OkHttpClient watchClient;
    private final Gson gson;
    private final ObjectDecoder<T> decoder;
    private final boolean custom;
    private volatile Call inFlight;

    public HttpWatchApi(ApiClient client, ResourceType<T> type, WatchScope scope, WatchOptions options) {
        this.client = Objects.requireNonNull(client, "client");
        this.type = Objects.requireNonNull(type, "type");
        this.scope = Objects.requireNonNull(scope, "scope");
        this.options = Objects.requireNonNull(options, "options");
        // An API server never redirects a list or watch: a redirect is a proxy or a wrong URL, and following it
        // would take answers (and, to the same host, credentials) somewhere else. It is reported instead.
        this.listClient = client.getHttpClient().newBuilder().followRedirects(false).build();
        this.watchClient = listClient.newBuilder()
                .readTimeout(options.timeout().plus(options.idleMargin()))
                .build();
        this.gson = client.getJSON().getGson();
        this.decoder = new ObjectDecoder<>(gson, type.javaType());
        this.custom = type.isMetadataOnly() ? !BuiltInResources.isBuiltInGroup(type.group())
                : BuiltInResources.groupVersionKind(type.javaType()).isEmpty();
    }

    /**
     * Starts building a watcher of {@code type} that talks to the API server through {@code client}: the way to
     * watch over HTTP. Its {@code HttpWatchApi} is made for the scope and options it is built with.
     */
    public static <T extends KubernetesObject> WatcherBuilder<T> watcher(ApiClient client, ResourceType<T> type) {
        Objects.requireNonNull(client, "client");
        return Watcher.builder((scope, options) -> new HttpWatchApi<>(client, type, scope, options), type);
    }

    @Override
    public ResolvedResource resolve() throws ApiFailure {
        if (type.isResolved()) {
            return type.resolved();
        }
        String path = type.group().isEmpty() ? "/api/" + type.version() : "/apis/" + type.group() + "/" + type.version();
        String display = type.apiVersion();
        // Named by its CRD (plural guessed from the kind if need be): a missing CRD is the usual 404 here.
        String body = new String(execute(listClient, get(path, List.of(), JSON), "discover", type.qualifiedName(),
                display), StandardCharsets.UTF_8);
        try {
            JsonElement list = JsonParser.parseString(body);
            for (JsonElement resource : list.getAsJsonObject().getAsJsonArray("resources")) {
                String name = JsonFields.string(resource, "name");
                String kind = JsonFields.string(resource, "kind");
                boolean matches = name != null && !name.contains("/")
                        && (type.plural() != null ? type.plural().equals(name) : Objects.equals(type.kind(), kind));
                if (matches) {
                    return new ResolvedResource(type.group(), type.version(), name,
                            Boolean.parseBoolean(JsonFields.string(resource, "namespaced")));
                }
            }
        } catch (JsonParseException | IllegalStateException | NullPointerException | ClassCastException e) {
            throw new ApiFailure(200, "discovery of " + display + " returned something that is not an API resource list",
                    null, e);
        }
        throw new ApiFailure(404, custom
                ? "not found: " + display + " serves no " + (type.kind() != null ? type.kind() : type.plural())
                        + " — is the CRD " + type.qualifiedName() + " installed?"
                : "not found: the server does not serve " + type);
    }

    @Override
    public ListPage<T> list(ResolvedResource resource, ListRequest request) throws ApiFailure {
        return list(resource, request, request.paged() ? options.pageSize() : 0);
    }

    /** A consistent list of one object ({@code limit=1}) with the selector: the cheapest answer that says. */
    @Override
    public String shardInfo(ResolvedResource resource, String shardSelector) throws ApiFailure {
        return list(resource, ListRequest.consistent().withShardSelector(shardSelector), 1).shardSelector();
    }

    /** {@code limit}: the page size to send, 0 for none. */
    private ListPage<T> list(ResolvedResource resource, ListRequest request, int limit) throws ApiFailure {
        List<Pair> query = new ArrayList<>();
        if (limit > 0) {
            query.add(new Pair("limit", Integer.toString(limit)));
        }
        addIfPresent(query, "resourceVersion", request.resourceVersion());
        addIfPresent(query, "continue", request.continueToken());
        addSelectors(query);
        addIfPresent(query, "shardSelector", request.shardSelector());
        String display = resource.toString();
        byte[] body = execute(listClient, get(resource.collectionPath(scope.namespace()), query,
                type.isMetadataOnly() ? METADATA_LIST : JSON), "list",
                resource.qualifiedName(), display);
        ObjectScanner.ScannedList<T> scanned = scanner(display).list(body);
        if (scanned != null) {
            return new ListPage<>(scanned.items(), scanned.resourceVersion(), scanned.continueToken(), List.of(),
                    scanned.shardSelector());
        }
        return parseList(new String(body, StandardCharsets.UTF_8), display);
    }

    @Override
    public EventStream<T> watch(ResolvedResource resource, WatchRequest request) throws ApiFailure {
        List<Pair> query = new ArrayList<>();
        query.add(new Pair("watch", "true"));
        query.add(new Pair("allowWatchBookmarks", "true"));
        query.add(new Pair("timeoutSeconds", Long.toString(options.timeout().toSeconds())));
        addIfPresent(query, "resourceVersion", request.resourceVersion());
        if (request.sendInitialEvents()) {
            query.add(new Pair("sendInitialEvents", "true"));
            query.add(new Pair("resourceVersionMatch", "NotOlderThan"));
        }
        addSelectors(query);
        addIfPresent(query, "shardSelector", request.shardSelector());
        String display = resource.toString();
        Call call = watchClient.newCall(get(resource.collectionPath(scope.namespace()), query,
                type.isMetadataOnly() ? METADATA : JSON));
        inFlight = call;
        Response response;
        try {
            response = send(call);
        } catch (IOException e) {
            throw ApiFailures.fromException(e, call.request().url(), "watch", display);
        }
        if (!response.isSuccessful()) {
            String body;
            try (response) {
                body = read(response, "watch", display);
            }
            throw ApiFailures.fromResponse(response, body, "watch", resource.qualifiedName(), display, scope, custom);
        }
        return new HttpEventStream<>(response, decoder, scanner(display), options.timeout().plus(options.idleMargin()),
                options.maxEventSize(), request.initialEventsDeadline());
    }

    @Override
    public void abort() {
        Call call = inFlight;
        if (call != null) {
            call.cancel();
        }
    }

    /** Reads a watch line's or a list's objects for this watcher, keeping their JSON to decode on demand. */
    private ObjectScanner<T> scanner(String display) {
        return new ObjectScanner<>(decoder, display, options.stripManagedFields(), ModelGson.strings());
    }

    /**
     * A page the scanner did not read, read item by item as trees, so an item that cannot be used is reported by
     * name and skipped, and a body that is no list says what is wrong with it.
     */
    private ListPage<T> parseList(String body, String display) throws ApiFailure {
        List<CachedObject<T>> items = new ArrayList<>();
        List<String> undecodable = new ArrayList<>();
        try (JsonReader reader = gson.newJsonReader(new StringReader(body))) {
            ListMetadata metadata = walkList(reader, item -> {
                ObjectDecoder.Decoded<T> decoded = decoder.decode(JsonParser.parseReader(item));
                if (decoded.object() != null) {
                    items.add(CachedObject.of(decoded.object()));
                } else {
                    undecodable.add(decoded.problem());
                }
            });
            if (!metadata.hasItems()) {
                // taken for an empty list, it would empty the store at InitDone
                throw notAList(display, "no items", body, null);
            }
            return new ListPage<>(items, metadata.resourceVersion(), metadata.continueToken(), undecodable,
                    metadata.shardSelector());
        } catch (IOException | RuntimeException e) {
            throw notAList(display, e.getClass().getSimpleName(), body, e);
        }
    }

    private static ApiFailure notAList(String display, String reason, String body, Exception cause) {
        return new ApiFailure(200, "the list of " + display + " returned a body that is not a Kubernetes list ("
                + reason + ")", null, new IOException("unexpected list body: " + ApiFailures.snippet(body), cause));
    }

    /**
     * {@code hasItems}: whether the body had an {@code items} field (null allowed); a body without one is no list.
     * {@code shardSelector}: {@code metadata.shardInfo.selector}, or {@code null}.
     */
    private record ListMetadata(String resourceVersion, String continueToken, String shardSelector, boolean hasItems) {
    }

    /** Reads one item at the reader's position. */
    private interface ItemReader {
        void read(JsonReader reader) throws IOException;
    }

    /** Walks a list body, handing each item to {@code items}; returns the list's metadata. */
    private static ListMetadata walkList(JsonReader reader, ItemReader items) throws IOException {
        String resourceVersion = null;
        String continueToken = null;
        String shardSelector = null;
        boolean hasItems = false;
        reader.beginObject();
        while (reader.hasNext()) {
            switch (reader.nextName()) {
                case "metadata" -> {
                    JsonElement metadata = JsonParser.parseReader(reader);
                    resourceVersion = JsonFields.string(metadata, "resourceVersion");
                    continueToken = JsonFields.string(metadata, "continue");
                    shardSelector = JsonFields.string(JsonFields.object(metadata, "shardInfo"), "selector");
                }
                case "items" -> {
                    hasItems = true;
                    if (reader.peek() == JsonToken.NULL) {
                        reader.nextNull();
                        continue;
                    }
                    reader.beginArray();
                    while (reader.hasNext()) {
                        items.read(reader);
                    }
                    reader.endArray();
                }
                default -> reader.skipValue();
            }
        }
        reader.endObject();
        return new ListMetadata(resourceVersion, continueToken, shardSelector, hasItems);
    }

    private byte[] execute(OkHttpClient http, Request request, String verb, String resource, String display)
            throws ApiFailure {
        Call call = http.newCall(request);
        inFlight = call;
        try (Response response = send(call)) {
            byte[] body = readBytes(response, verb, display);
            if (!response.isSuccessful()) {
                throw ApiFailures.fromResponse(response, new String(body, StandardCharsets.UTF_8), verb, resource,
                        display, scope, custom);
            }
            return body;
        } catch (IOException e) {
            throw ApiFailures.fromException(e, request.url(), verb, display);
        } finally {
            inFlight = null;
        }
    }

    /**
     * Executes {@code call}. OkHttp 5 lets an {@link InterruptedException} it does not declare out of
     * {@link Call#execute()} when the thread is interrupted while it connects, as {@code Watcher.close()} does; that
     * would end the watcher's thread with an uncaught exception, so it fails the call as an interrupted read does.
     */
    private static Response send(Call call) throws IOException {
        try {
            return call.execute();
        } catch (IOException | RuntimeException declared) {
            throw declared;
        } catch (Exception undeclared) {
            if (undeclared instanceof InterruptedException) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while connecting");
            }
            throw new IOException(undeclared);
        }
    }

    /** The body's bytes; failing to read them once the server has answered is not failing to reach the server. */
    private static byte[] readBytes(Response response, String verb, String display) throws ApiFailure {
        ResponseBody body = response.body();
        try {
            return body == null ? new byte[0] : body.bytes();
        } catch (IOException e) {
            throw ApiFailures.fromUnreadableBody(response, e, verb, display);
        }
    }

    /** The body; failing to read it once the server has answered is not failing to reach the server. */
    private static String read(Response response, String verb, String display) throws ApiFailure {
        ResponseBody body = response.body();
        try {
            return body == null ? "" : body.string();
        } catch (IOException e) {
            throw ApiFailures.fromUnreadableBody(response, e, verb, display);
        }
    }

    private Request get(String path, List<Pair> query, String accept) throws ApiFailure {
        Map<String, String> headers = new HashMap<>();
        headers.put("Accept", accept);
        try {
            return client.buildRequest(client.getBasePath(), path, "GET", query, List.of(), null, headers,
                    new HashMap<>(), new HashMap<>(), AUTH, null);
        } catch (ApiException e) {
            throw new ApiFailure(0, "cannot build a request for " + path + ": " + e.getMessage(), null, e);
        }
    }

    private void addSelectors(List<Pair> query) {
        addIfPresent(query, "labelSelector", scope.labelSelector());
        addIfPresent(query, "fieldSelector", scope.fieldSelector());
    }

    private static void addIfPresent(List<Pair> query, String name, String value) {
        if (value != null && !value.isEmpty()) {
            query.add(new Pair(name, value));
        }
    }
}
