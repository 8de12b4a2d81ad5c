package dev.watchkeeper.test.apiserver;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.sun.net.httpserver.HttpServer;
import io.kubernetes.client.apimachinery.GroupVersionKind;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.ModelMapper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A stateful fake Kubernetes API server speaking real HTTP/1.1 on 127.0.0.1, for tests and demos without a
 * cluster. client-java, informers and {@code kubectl} work against it: CRUD, patches, the status subresource,
 * paged lists with selectors, watches with history replay, bookmarks and streaming lists, CRDs, discovery, and
 * injectable faults.
 *
 * <pre>{@code
 * try (InMemoryApiServer server = new InMemoryApiServer().start()) {
 *     server.create(new V1ConfigMap().metadata(new V1ObjectMeta().namespace("default").name("x")));
 *     CoreV1Api api = new CoreV1Api(server.apiClient());
 *     server.outage(Duration.ofSeconds(2));          // every request answers 503 for two seconds
 *     server.compact();                              // watches from older resourceVersions get 410
 * }
 * }</pre>
 */
public final class InMemoryApiServer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(InMemoryApiServer.class);
    private static final Duration REBIND_RETRY = Duration.ofMillis(50);

    private final ResourceRegistry registry = new ResourceRegistry();
    private final Faults faults;
    private final ObjectStore store;
    private final ApiOperations operations;
    private final ApiHttpHandler handler;
    private final GarbageCollector garbageCollector;
    private final ExecutorService executor = Executors.newCachedThreadPool(daemonThreads("kube-api-fake-"));
    private final ScheduledExecutorService timer =
            Executors.newSingleThreadScheduledExecutor(daemonThreads("kube-api-fake-timer-"));
    private final Object lifecycle = new Object();
    private HttpServer server;
    private ScheduledFuture<?> rebind;
    private int port;
    private boolean closed;

    /** A server on a random port, keeping 10,000 history entries and bookmarking open watches every second. */
    public InMemoryApiServer() {
        this(builder());
    }

    private InMemoryApiServer(Builder builder) {
        this.port = builder.port;
        this.faults = new Faults(builder.outageClock);
        this.store = new ObjectStore(builder.historyLimit, builder.initialResourceVersion);
        this.operations = new ApiOperations(registry, store);
        this.garbageCollector = new GarbageCollector(operations, daemonThreads("kube-api-fake-gc-"));
        ResourceSchemas schemas = new ResourceSchemas(operations);
        this.handler = new ApiHttpHandler(faults,
                new DiscoveryHandler(registry, r -> !faults.isHidden(r), () -> "127.0.0.1:" + port()),
                new OpenApiHandler(registry, schemas, r -> !faults.isHidden(r)),
                new ResourceHandler(operations, schemas, faults, builder.bookmarkInterval,
                        builder.watchList, builder.withoutWatchCache, builder.shardSelectors));
    }

    /**
     * Options for a server, e.g. {@code InMemoryApiServer.builder().historyLimit(100).build().start()}.
     */
    public static Builder builder() {
        return new Builder();
    }

    // ---------------------------------------------------------------- lifecycle

    /** Starts listening; returns {@code this}. */
    public InMemoryApiServer start() {
        synchronized (lifecycle) {
            if (closed) {
                throw new IllegalStateException("the server was closed");
            }
            if (server == null) {
                try {
                    bind();
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot listen on 127.0.0.1:" + port, e);
                }
            }
            return this;
        }
    }

    /** Ends open watches, stops listening and stops every thread of the server. */
    @Override
    public void close() {
        synchronized (lifecycle) {
            if (closed) {
                return;
            }
            closed = true;
            timer.shutdownNow();
            garbageCollector.close();
            store.endWatches();
            if (server != null) {
                server.stop(0);
                server = null;
            }
        }
        executor.shutdown();
        try {
            if (!executor.awaitTermination(5, TimeUnit.SECONDS)) {
                log.warn("request threads still busy 5 s after close; interrupting them");
                executor.shutdownNow();
            }
            timer.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            executor.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    /** The base URL, e.g. {@code http://127.0.0.1:41234}. */
    public String url() {
        return "http://127.0.0.1:" + port();
    }

    /** The port listened on (also while a refused-connection outage lasts). */
    public int port() {
        synchronized (lifecycle) {
            return port;
        }
    }

    /** A client-java {@link ApiClient} pointed at this server, without read timeout so watches stay open. */
    public ApiClient apiClient() {
        return new ClientBuilder().setBasePath(url()).setReadTimeout(Duration.ZERO).build();
    }

    /** A kubeconfig for this server (plain HTTP, a dummy token, namespace {@code default}). */
    public String kubeconfig() {
        return """
                apiVersion: v1
                kind: Config
                clusters:
                - name: watchkeeper-fake
                  cluster:
                    server: %s
                users:
                - name: watchkeeper-fake
                  user:
                    token: watchkeeper-fake-token
                contexts:
                - name: watchkeeper-fake
                  context:
                    cluster: watchkeeper-fake
                    user: watchkeeper-fake
                    namespace: default
                current-context: watchkeeper-fake
                """.formatted(url());
    }

    /** Writes {@link #kubeconfig()} to {@code dir/kubeconfig} and returns its path. */
    public Path writeKubeconfig(Path dir) throws IOException {
        return Files.writeString(Files.createDirectories(dir).resolve("kubeconfig"), kubeconfig());
    }

    // ---------------------------------------------------------------- faults

    /**
     * Answers every request with 503 ServiceUnavailable for {@code duration} of the {@linkplain Builder#outageClock
     * outage clock}; open watches end.
     */
    public void outage(Duration duration) {
        outage(duration, OutageMode.SERVICE_UNAVAILABLE);
    }

    /**
     * Fails every request for {@code duration}; open watches end. With {@link OutageMode#CONNECTION_REFUSED} the
     * server stops listening and listens on the same port again after {@code duration} of real time; a 503 outage
     * is timed on the {@linkplain Builder#outageClock outage clock}.
     */
    public void outage(Duration duration, OutageMode mode) {
        store.endWatches();
        if (mode == OutageMode.SERVICE_UNAVAILABLE) {
            faults.startOutage(duration);
            return;
        }
        synchronized (lifecycle) {
            if (closed || server == null) {
                return;
            }
            server.stop(0);
            server = null;
            rebind = timer.schedule(this::rebind, duration.toNanos(), TimeUnit.NANOSECONDS);
        }
    }

    /** Ends an outage now. */
    public void endOutage() {
        faults.endOutage();
        synchronized (lifecycle) {
            if (rebind != null && rebind.cancel(false)) {
                rebind();
            }
        }
    }

    /** Answers requests on the core resource {@code plural} with 403 Forbidden until {@link #allow(String)}. */
    public void forbid(String plural) {
        forbid("", plural);
    }

    /** Answers requests on {@code plural.group} with 403 Forbidden until {@link #allow(String, String)}. */
    public void forbid(String group, String plural) {
        faults.forbid(group, plural);
    }

    /** Makes the core resource {@code plural} unknown (404, absent from discovery) until {@link #allow(String)}. */
    public void hide(String plural) {
        hide("", plural);
    }

    /** Makes {@code plural.group} unknown (404, absent from discovery) until {@link #allow(String, String)}. */
    public void hide(String group, String plural) {
        faults.hide(group, plural);
    }

    /** Undoes {@link #forbid(String)} and {@link #hide(String)}. */
    public void allow(String plural) {
        allow("", plural);
    }

    /** Undoes {@link #forbid(String, String)} and {@link #hide(String, String)}. */
    public void allow(String group, String plural) {
        faults.allow(group, plural);
    }

    /** Answers the next {@code requests} requests with 429 TooManyRequests and {@code Retry-After}. */
    public void throttle(int requests, Duration retryAfter) {
        faults.throttle(requests, retryAfter);
    }

    /** Delays every response by {@code delay}; {@link Duration#ZERO} stops delaying. */
    public void delayResponses(Duration delay) {
        faults.delay(delay);
    }

    /**
     * Answers the next {@code requests} requests of any kind with {@code code}: 500 InternalError or 503
     * ServiceUnavailable, with a Status body.
     */
    public void failRequests(int requests, int code) {
        if (code != 500 && code != 503) {
            throw new IllegalArgumentException("only 500 and 503 can be injected, not " + code);
        }
        faults.fail(requests, code);
    }

    /** Answers the next {@code watches} watch requests 410 Expired (too old resourceVersion) instead of streaming. */
    public void expireWatchStarts(int watches) {
        faults.expireWatchStarts(watches);
    }

    /**
     * Writes response bodies in pieces of at most 1 KB (a watch line is one piece, or several when longer) with
     * {@code pause} after each; {@link Duration#ZERO} stops it. Applies to responses begun afterwards.
     */
    public void slowBodies(Duration pause) {
        faults.bodyPause(pause);
    }

    /**
     * Sends an ERROR 410 event on every open watch and ends it, though the history is kept (a watch cache that fell
     * behind); unlike {@link #compact()}, a rewatch from the same resourceVersion would succeed.
     */
    public void expireWatches() {
        store.disruptWatches(new WatchDisruption.Expire());
    }

    /** Writes a line that is not JSON on every open watch; the watches go on streaming after it. */
    public void sendMalformedLine() {
        store.disruptWatches(new WatchDisruption.MalformedLine());
    }

    /**
     * Writes the first half of a line on every open watch, then drops its connection without the terminating chunk.
     */
    public void truncateWatches() {
        store.disruptWatches(new WatchDisruption.Truncate());
    }

    /** Drops the connection of every open watch without the terminating chunk, as a connection reset does. */
    public void resetWatches() {
        store.disruptWatches(new WatchDisruption.Reset());
    }

    /**
     * Silences every open watch for {@code silence} (real time): no event, no bookmark, past its own timeout if
     * longer; then drops its connection. Events meanwhile are not sent on it (a client resumes and replays them).
     */
    public void stallWatches(Duration silence) {
        store.disruptWatches(new WatchDisruption.Stall(silence));
    }

    /** Ends every open watch normally (terminating chunk). */
    public void closeWatches() {
        store.endWatches();
    }

    /**
     * Drops all history, as an etcd compaction does: open watches get an ERROR 410 event and end, watches and
     * continue tokens from older resourceVersions get 410 Expired.
     */
    public void compact() {
        store.compact();
    }

    /** How many requests were received (including failed ones). */
    public int requestCount() {
        return faults.requests().size();
    }

    /** Every request received, oldest first. */
    public List<ServedRequest> requests() {
        return faults.requests();
    }

    /** The requests that addressed resource {@code plural} (any group), oldest first. */
    public List<ServedRequest> requests(String plural) {
        return faults.requests().stream().filter(r -> plural.equals(r.plural())).toList();
    }

    /** How many watches are open now. */
    public int openWatches() {
        return store.openWatches();
    }

    /** The current global resourceVersion. */
    public long resourceVersion() {
        return store.resourceVersion();
    }

    // ---------------------------------------------------------------- objects without HTTP

    /**
     * Creates an object: a client-java model (e.g. {@code V1ConfigMap}) or a {@link JsonObject} with
     * {@code apiVersion} and {@code kind}. Returns the stored object as the same type.
     *
     * @throws StatusException e.g. 409 AlreadyExists
     */
    public <T> T create(T object) {
        JsonObject json = toJson(object);
        return fromJson(operations.create(resourceOf(json, object.getClass()), null, json), object);
    }

    /**
     * Replaces an object (a PUT); a set {@code metadata.resourceVersion} must be current.
     *
     * @throws StatusException 404 NotFound, 409 Conflict
     */
    public <T> T update(T object) {
        return update(object, false);
    }

    /** Replaces the {@code status} of an object (a PUT on {@code /status}). */
    public <T> T updateStatus(T object) {
        return update(object, true);
    }

    /** The object, e.g. {@code get("", "configmaps", "default", "x")}; namespace is ignored when cluster-scoped. */
    public Optional<JsonObject> get(String group, String plural, String namespace, String name) {
        return operations.get(resource(group, plural), namespace, name).map(JsonObject::deepCopy);
    }

    /** The object as a client-java model, e.g. {@code get(V1ConfigMap.class, "default", "x")}. */
    public <T> Optional<T> get(Class<T> type, String namespace, String name) {
        return operations.get(resourceOf(type), namespace, name).map(o -> JSON.getGson().fromJson(o, type));
    }

    /** The objects of a resource in {@code namespace}, or in all namespaces when {@code null}. */
    public List<JsonObject> list(String group, String plural, String namespace) {
        return store.list(resource(group, plural), namespace).items().stream().map(JsonObject::deepCopy).toList();
    }

    /** The objects of a client-java model type in {@code namespace}, or in all namespaces when {@code null}. */
    public <T> List<T> list(Class<T> type, String namespace) {
        return store.list(resourceOf(type), namespace).items().stream()
                .map(o -> JSON.getGson().fromJson(o, type)).toList();
    }

    /** Deletes an object; returns whether it existed. */
    public boolean delete(String group, String plural, String namespace, String name) {
        ApiResource resource = resource(group, plural);
        if (operations.get(resource, namespace, name).isEmpty()) {
            return false;
        }
        operations.delete(resource, namespace, name, new JsonObject());
        return true;
    }

    /** Serves a resource without a CRD, e.g. {@code serve(ApiResource.namespaced("example.com", "v1", "widgets", "Widget"))}. */
    public void serve(ApiResource resource) {
        registry.register(resource);
    }

    /**
     * Creates a CustomResourceDefinition {@code plural.group} with one served version, a status subresource and a
     * schema preserving unknown fields; its resource is servable when this returns.
     */
    public JsonObject createCustomResourceDefinition(String group, String version, String plural, String kind,
                                                     boolean namespaced) {
        JsonObject crd = new JsonObject();
        crd.addProperty("apiVersion", ResourceRegistry.CRD_GROUP + "/v1");
        crd.addProperty("kind", "CustomResourceDefinition");
        JsonObject metadata = new JsonObject();
        metadata.addProperty("name", plural + "." + group);
        crd.add("metadata", metadata);
        JsonObject spec = new JsonObject();
        spec.addProperty("group", group);
        spec.addProperty("scope", namespaced ? "Namespaced" : "Cluster");
        JsonObject names = new JsonObject();
        names.addProperty("plural", plural);
        names.addProperty("singular", kind.toLowerCase(java.util.Locale.ROOT));
        names.addProperty("kind", kind);
        names.addProperty("listKind", kind + "List");
        spec.add("names", names);
        JsonObject served = new JsonObject();
        served.addProperty("name", version);
        served.addProperty("served", true);
        served.addProperty("storage", true);
        JsonObject subresources = new JsonObject();
        subresources.add("status", new JsonObject());
        served.add("subresources", subresources);
        JsonObject schema = new JsonObject();
        JsonObject openApi = new JsonObject();
        openApi.addProperty("type", "object");
        openApi.addProperty("x-kubernetes-preserve-unknown-fields", true);
        schema.add("openAPIV3Schema", openApi);
        served.add("schema", schema);
        JsonArray versions = new JsonArray();
        versions.add(served);
        spec.add("versions", versions);
        crd.add("spec", spec);
        return create(crd);
    }

    // ---------------------------------------------------------------- internals

    private <T> T update(T object, boolean statusOnly) {
        JsonObject json = toJson(object);
        ApiResource resource = resourceOf(json, object.getClass());
        JsonObject metadata = Json.object(json, "metadata");
        return fromJson(operations.replace(resource, Json.string(metadata, "namespace"),
                Json.string(metadata, "name"), json, statusOnly), object);
    }

    private ApiResource resource(String group, String plural) {
        return registry.findAnyVersion(group, plural).orElseThrow(
                () -> new IllegalArgumentException("unknown resource " + plural + (group.isEmpty() ? "" : "." + group)));
    }

    private ApiResource resourceOf(JsonObject json, Class<?> type) {
        String apiVersion = Json.string(json, "apiVersion");
        String kind = Json.string(json, "kind");
        if (apiVersion == null || kind == null) {
            return resourceOf(type);
        }
        return registry.findByKind(apiVersion, kind).orElseThrow(
                () -> new IllegalArgumentException("no resource serves " + apiVersion + " " + kind));
    }

    private ApiResource resourceOf(Class<?> type) {
        GroupVersionKind gvk = ModelMapper.preBuiltGetGroupVersionKindByClass(type).orElseThrow(
                () -> new IllegalArgumentException(type.getName() + " has no apiVersion and kind; set them"));
        String apiVersion = gvk.getGroup().isEmpty() ? gvk.getVersion() : gvk.getGroup() + "/" + gvk.getVersion();
        return registry.findByKind(apiVersion, gvk.getKind()).orElseThrow(
                () -> new IllegalArgumentException("no resource serves " + apiVersion + " " + gvk.getKind()));
    }

    private static JsonObject toJson(Object object) {
        if (object instanceof JsonObject json) {
            return json;
        }
        return JSON.getGson().toJsonTree(object).getAsJsonObject();
    }

    @SuppressWarnings("unchecked")
    private static <T> T fromJson(JsonObject stored, T like) {
        if (like instanceof JsonObject) {
            return (T) stored.deepCopy();
        }
        return (T) JSON.getGson().fromJson(stored, like.getClass());
    }

    private void bind() throws IOException {
        HttpServer created = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
        created.createContext("/", handler);
        created.setExecutor(executor);
        created.start();
        server = created;
        port = created.getAddress().getPort();
    }

    private void rebind() {
        synchronized (lifecycle) {
            rebind = null;
            if (closed || server != null) {
                return;
            }
            try {
                bind();
            } catch (BindException e) {
                log.debug("port {} not free yet, retrying in {}", port, REBIND_RETRY);
                rebind = timer.schedule(this::rebind, REBIND_RETRY.toMillis(), TimeUnit.MILLISECONDS);
            } catch (IOException e) {
                log.error("cannot listen on port {} again after the outage", port, e);
            }
        }
    }

    private static ThreadFactory daemonThreads(String prefix) {
        AtomicInteger count = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, prefix + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }

    /** Options of an {@link InMemoryApiServer}. */
    public static final class Builder {

        private int port;
        private int historyLimit = 10_000;
        private long initialResourceVersion = 1000;
        private Duration bookmarkInterval = Duration.ofSeconds(1);
        private boolean watchList = true;
        private Set<String> withoutWatchCache = Set.of();
        private boolean shardSelectors = true;
        private Clock outageClock = Clock.systemUTC();

        private Builder() {
        }

        /**
         * The clock {@link InMemoryApiServer#outage(Duration)} is timed on (default the system clock); a test's
         * virtual clock makes an outage of minutes pass as the client's backoff sleeps do.
         */
        public Builder outageClock(Clock outageClock) {
            this.outageClock = Objects.requireNonNull(outageClock, "outageClock");
            return this;
        }

        /** The port to listen on, {@code 0} (default) for a random one. */
        public Builder port(int port) {
            this.port = port;
            return this;
        }

        /** How many changes watches can replay (default 10,000); older resourceVersions get 410. */
        public Builder historyLimit(int historyLimit) {
            this.historyLimit = historyLimit;
            return this;
        }

        /** The first resourceVersion (default 1000). */
        public Builder initialResourceVersion(long initialResourceVersion) {
            this.initialResourceVersion = initialResourceVersion;
            return this;
        }

        /** How often open watches with {@code allowWatchBookmarks=true} get a BOOKMARK (default 1 s). */
        public Builder bookmarkInterval(Duration bookmarkInterval) {
            this.bookmarkInterval = bookmarkInterval;
            return this;
        }

        /**
         * Whether watches may stream the initial list ({@code sendInitialEvents}; default true, as in current
         * Kubernetes); false answers such a watch 422, as a server with the WatchList feature gate off does.
         */
        public Builder watchList(boolean watchList) {
            this.watchList = watchList;
            return this;
        }

        /**
         * Resources ({@code plural} or {@code plural.group}) served without a watch cache, as kube-apiserver's
         * {@code --watch-cache-sizes=<resource>#0} does (default none): a list at any version
         * ({@code resourceVersion=0}) then honours {@code limit} and pages, instead of answering in one document.
         */
        public Builder withoutWatchCache(String... resources) {
            this.withoutWatchCache = Set.of(resources);
            return this;
        }

        /**
         * Whether lists and watches honour {@code shardSelector} (default true, as kube-apiserver with the alpha
         * ShardedListAndWatch feature gate on, though the gate is off by default there): only objects whose uid (or
         * namespace) hash falls in the selected ranges are served, and a list carries
         * {@code metadata.shardInfo.selector}. False ignores the parameter, as a server with the gate off does.
         */
        public Builder shardSelectors(boolean shardSelectors) {
            this.shardSelectors = shardSelectors;
            return this;
        }

        /** The server, not yet started. */
        public InMemoryApiServer build() {
            return new InMemoryApiServer(this);
        }
    }
}
