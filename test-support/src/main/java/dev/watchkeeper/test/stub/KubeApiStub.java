package dev.watchkeeper.test.stub;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.common.Slf4jNotifier;
import com.github.tomakehurst.wiremock.core.Options;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import com.github.tomakehurst.wiremock.extension.ResponseDefinitionTransformerV2;
import com.github.tomakehurst.wiremock.http.Request;
import com.github.tomakehurst.wiremock.http.ResponseDefinition;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import dev.watchkeeper.test.Waiting;
import io.kubernetes.client.openapi.ApiClient;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.function.Predicate;
import okhttp3.OkHttpClient;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A scripted Kubernetes API server over real HTTP on a random loopback port, for testing watchers through the
 * official client: the Java form of kube-rs's API-mode watcher tests. Each resource path has a script of list and
 * watch steps that calls consume in order; every request is recorded.
 *
 * <pre>{@code
 * KubeApiStub stub = new KubeApiStub().start();
 * stub.on("/api/v1/namespaces/default/configmaps")
 *     .list(page(cm("a")).continueToken("c1"))
 *     .list(page(cm("b")).resourceVersion("3"))
 *     .watch(events(added(cm("d", "4"))).thenStayOpen())
 *     .watch(events(modified(cm("d", "5")), notJson("oops")).thenReset())
 *     .watch(status(503))
 *     .list(forbidden("configmaps", "default"));
 * ApiClient client = stub.apiClient();
 * ...
 * stub.assertScriptConsumed();
 * assertThat(stub.watchRequests(path).get(0).resourceVersion()).isEqualTo("3");
 * }</pre>
 *
 * <h2>Rules</h2>
 * <ul>
 * <li>A GET with {@code watch=true} is a watch call, any other GET a list call ({@code watch=false} included).
 *     Each takes the next step of its path's script. When the next step is of the other kind the call gets a 500
 *     Status {@code stub script expected a list but got a watch} (or the reverse), the step stays, and a
 *     {@link ScriptViolation} is recorded ({@link #assertNoViolations()}).</li>
 * <li>When a path's script is used up, a watch call gets a stream that stays open and idle (so a watcher neither
 *     loops nor fails) and a list call gets an empty last page at resourceVersion {@code "1"}.</li>
 * <li>A path with no script: discovery documents ({@code /api}, {@code /api/v1}, {@code /apis},
 *     {@code /apis/{group}/{version}}, {@code /version}) listing the built-ins (configmaps, secrets, pods,
 *     namespaces) and every scripted resource; anything else is a 404 Status and a violation. Scripting a
 *     discovery path overrides the built-in document.</li>
 * </ul>
 *
 * <h2>How watch bodies stream</h2>
 * Stock WireMock bodies are all-or-nothing: its servlet copies a body stream into Jetty's buffered output, and
 * even reads the body fully before sending it, to log it. So a watch step is answered in two halves.
 * WireMock answers it as usual (status, headers, through a global {@link ResponseDefinitionTransformerV2}) with
 * an empty body and a marker header naming the parked {@link StreamAnswer}. WireMock's own Jetty 11 server is
 * built by a custom {@code HttpServerFactory} that adds a servlet filter in front of WireMock's servlet; the
 * filter hides the marker, discards WireMock's empty body and, when WireMock is done, writes the events itself,
 * flushing each line (so a client reads them while the response is still open), then ends the body: normally
 * (final chunk), by aborting the Jetty channel mid-body (the client's read fails with an {@code IOException}),
 * or by holding the request open until {@link #reset()} or {@link #close()}. One server, one port, one
 * scripting API, one request journal; WireMock's faults work unchanged. Gzip is off, so flushes reach the wire.
 *
 * <h2>As a JUnit extension</h2>
 * {@code @RegisterExtension static KubeApiStub stub = new KubeApiStub();} starts the stub before each test, resets
 * it after each (after the test's own {@code @AfterEach} methods, so watchers can be closed first) and closes it
 * after the class. A non-static field works too: the stub is then closed when the test class is done. Needs
 * {@code junit-jupiter-api} on the test classpath (an optional dependency of this module).
 */
public final class KubeApiStub implements AutoCloseable, BeforeEachCallback, AfterEachCallback, AfterAllCallback {

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(KubeApiStub.class);

    private final Object lock = new Object();
    private final Map<String, Deque<PathScript.Step>> scripts = new LinkedHashMap<>();
    private final List<RecordedRequest> requests = new ArrayList<>();
    private final List<ScriptViolation> violations = new ArrayList<>();
    private final OpenStreams streams = new OpenStreams();
    private final Discovery discovery = new Discovery();
    private final List<ApiClient> clients = new ArrayList<>();
    private WireMockServer server;
    private volatile int port;

    /** Starts the server on a random loopback port; does nothing when already started. */
    public KubeApiStub start() {
        synchronized (lock) {
            if (server != null) {
                return this;
            }
            Options options = WireMockConfiguration.options()
                    .dynamicPort()
                    .bindAddress("127.0.0.1")
                    .httpServerFactory(new StreamingServerFactory(streams))
                    .extensions(new ScriptedAnswers())
                    .containerThreads(64)
                    .gzipDisabled(true)
                    .disableRequestJournal()
                    .stubRequestLoggingDisabled(true)
                    .useChunkedTransferEncoding(Options.ChunkedEncodingPolicy.ALWAYS)
                    .jettyStopTimeout(2_000L)
                    .notifier(new Slf4jNotifier(false));
            WireMockServer started = new WireMockServer(options);
            started.start();
            started.stubFor(any(anyUrl()).willReturn(aResponse()));
            port = started.port();
            server = started;
            return this;
        }
    }

    /** {@code http://127.0.0.1:<port>}. */
    public String url() {
        return "http://127.0.0.1:" + port();
    }

    public int port() {
        synchronized (lock) {
            if (server == null) {
                throw new IllegalStateException("the stub is not started");
            }
            return server.port();
        }
    }

    public boolean isRunning() {
        synchronized (lock) {
            return server != null;
        }
    }

    /**
     * A client-java client pointed at the stub, with no read timeout (a watch may be idle for as long as a test
     * runs; the stub ends open streams on {@link #close()}) and without OkHttp's silent retry on connection
     * failure, which would otherwise answer a scripted fault with the next step behind the caller's back. Its
     * connections are dropped on close.
     */
    public ApiClient apiClient() {
        ApiClient client = new ApiClient().setBasePath(url());
        OkHttpClient http = client.getHttpClient().newBuilder().readTimeout(Duration.ZERO)
                .retryOnConnectionFailure(false).build();
        client.setHttpClient(http);
        synchronized (lock) {
            clients.add(client);
        }
        return client;
    }

    /** The script of {@code path}, e.g. {@code /api/v1/namespaces/default/configmaps}; appends to an existing one. */
    public PathScript on(String path) {
        if (!path.startsWith("/") || path.contains("?")) {
            throw new IllegalArgumentException("expected a path without query, e.g. /api/v1/configmaps: " + path);
        }
        synchronized (lock) {
            scripts.computeIfAbsent(path, p -> new ArrayDeque<>());
            discovery.learn(path);
        }
        return new PathScript(this, path);
    }

    /**
     * Declares a resource for discovery, e.g. a cluster-scoped custom resource; scripted paths are declared
     * automatically (namespaced, kind guessed from the plural).
     */
    public KubeApiStub resource(String groupVersion, String plural, String kind, boolean namespaced) {
        discovery.add(new Discovery.Resource(groupVersion, plural, kind, namespaced));
        return this;
    }

    void append(String path, PathScript.Step step) {
        synchronized (lock) {
            scripts.computeIfAbsent(path, p -> new ArrayDeque<>()).add(step);
        }
    }

    // ---- journal

    /** Every request since start or the last reset, in arrival order. */
    public List<RecordedRequest> requests() {
        synchronized (lock) {
            return List.copyOf(requests);
        }
    }

    /** The requests to {@code path}. */
    public List<RecordedRequest> requests(String path) {
        return select(r -> r.path().equals(path));
    }

    /** The watch calls to {@code path}. */
    public List<RecordedRequest> watchRequests(String path) {
        return select(r -> r.path().equals(path) && r.isWatch());
    }

    /** The list calls to {@code path}. */
    public List<RecordedRequest> listRequests(String path) {
        return select(r -> r.path().equals(path) && r.isList());
    }

    /**
     * Waits until {@code path} has had at least {@code n} requests and returns them all.
     *
     * @throws AssertionError on timeout, listing what did arrive
     */
    public List<RecordedRequest> awaitRequests(String path, int n, Duration timeout) {
        awaitCondition(() -> requests(path).size() >= n, timeout,
                () -> "expected " + n + " requests to " + path + " within " + timeout + " but got " + requests(path));
        return requests(path);
    }

    private List<RecordedRequest> select(Predicate<RecordedRequest> filter) {
        synchronized (lock) {
            return requests.stream().filter(filter).toList();
        }
    }

    // ---- script state

    /** The requests the script did not allow for. */
    public List<ScriptViolation> violations() {
        synchronized (lock) {
            return List.copyOf(violations);
        }
    }

    /** @throws AssertionError when any request broke the script */
    public void assertNoViolations() {
        List<ScriptViolation> found = violations();
        if (!found.isEmpty()) {
            throw new AssertionError("stub script violations: " + found);
        }
    }

    /** Whether every scripted step has been used. */
    public boolean scriptConsumed() {
        synchronized (lock) {
            return scripts.values().stream().allMatch(Deque::isEmpty);
        }
    }

    /** @throws AssertionError naming the unused steps and any violations */
    public void assertScriptConsumed() {
        synchronized (lock) {
            if (!scriptConsumed()) {
                throw new AssertionError("stub script not consumed: " + remaining()
                        + (violations.isEmpty() ? "" : "; violations: " + violations));
            }
        }
    }

    /**
     * Waits until every scripted step has been used.
     *
     * @throws AssertionError on timeout, naming the unused steps
     */
    public void awaitScriptConsumed(Duration timeout) {
        awaitCondition(this::scriptConsumed, timeout, () -> "stub script not consumed within " + timeout + ": "
                + remaining() + "; requests: " + requests() + "; violations: " + violations());
    }

    private String remaining() {
        synchronized (lock) {
            StringJoiner text = new StringJoiner("; ");
            scripts.forEach((path, steps) -> {
                if (!steps.isEmpty()) {
                    text.add(path + " → " + steps.stream()
                            .map(s -> s.kind().name().toLowerCase() + " " + s.answer().getClass().getSimpleName())
                            .toList());
                }
            });
            return text.toString();
        }
    }

    /**
     * Ends every watch response being streamed or held open, cleanly (as when an API server restarts or a
     * server-side timeout fires), keeping scripts and requests: the next calls take the next steps.
     */
    public void endOpenStreams() {
        streams.releaseAll();
    }

    /** How many watch responses are being streamed or held open right now. */
    public int openStreams() {
        return streams.openCount();
    }

    // ---- lifecycle

    @Override
    public void beforeEach(ExtensionContext context) {
        start();
        // An instance field gets no afterAll; the class-level store closes what it holds when the class is done.
        context.getParent().ifPresent(parent -> parent.getStore(NAMESPACE)
                .getOrComputeIfAbsent(this, key -> (AutoCloseable) this::close));
    }

    @Override
    public void afterEach(ExtensionContext context) {
        reset();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        close();
    }

    /** Forgets scripts, requests and violations, and ends every open watch stream; the server keeps running. */
    public void reset() {
        synchronized (lock) {
            scripts.clear();
            requests.clear();
            violations.clear();
            streams.releaseAll();
            lock.notifyAll();
        }
    }

    /** Ends open watch streams, stops the server and drops the connections of {@link #apiClient()} clients. */
    @Override
    public void close() {
        WireMockServer stopping;
        List<ApiClient> opened;
        synchronized (lock) {
            streams.releaseAll();
            stopping = server;
            server = null;
            opened = List.copyOf(clients);
            clients.clear();
        }
        if (stopping != null) {
            // released streams end with their final chunk, not a dropped connection
            streams.awaitNoneOpen(1_000);
            stopping.stop();
        }
        for (ApiClient client : opened) {
            OkHttpClient http = client.getHttpClient();
            http.dispatcher().cancelAll();
            http.connectionPool().evictAll();
            http.dispatcher().executorService().shutdown();
        }
    }

    private void awaitCondition(java.util.function.BooleanSupplier condition, Duration timeout,
            java.util.function.Supplier<String> failure) {
        Waiting.until(lock, condition, timeout, failure);
    }

    // ---- answering

    ResponseDefinition answer(String method, String url) {
        int queryStart = url.indexOf('?');
        String path = queryStart < 0 ? url : url.substring(0, queryStart);
        Map<String, String> query = queryStart < 0 ? Map.of() : parseQuery(url.substring(queryStart + 1));
        synchronized (lock) {
            RecordedRequest request = new RecordedRequest(requests.size(), method, path, query);
            requests.add(request);
            lock.notifyAll();
            Deque<PathScript.Step> script = scripts.get(path);
            if (script == null) {
                return unscripted(request);
            }
            if (!"GET".equals(method)) {
                return violation(request, 405, "MethodNotAllowed", "stub scripts only answer GET, got " + method);
            }
            PathScript.Step.Kind kind = request.isWatch() ? PathScript.Step.Kind.WATCH : PathScript.Step.Kind.LIST;
            PathScript.Step next = script.peek();
            if (next == null) {
                return kind == PathScript.Step.Kind.WATCH
                        ? render(Replies.events().thenStayOpen(), path)
                        : render(new PageAnswer(List.of(), "1", null), path);
            }
            if (next.kind() != kind) {
                return violation(request, 500, "InternalError",
                        "stub script expected " + next.kind().withArticle() + " but got " + kind.withArticle());
            }
            script.poll();
            return render(next.answer(), path);
        }
    }

    private ResponseDefinition unscripted(RecordedRequest request) {
        if ("GET".equals(request.method())) {
            var document = discovery.document(request.path(), "127.0.0.1:" + port);
            if (document.isPresent()) {
                return json(200, document.get()).build();
            }
        }
        return violation(request, 404, "NotFound", "stub has no script for " + request.method() + " " + request.path());
    }

    private ResponseDefinition violation(RecordedRequest request, int code, String reason, String problem) {
        violations.add(new ScriptViolation(request, problem));
        return render(Replies.statusOf(code, reason, problem, null, null), request.path());
    }

    private ResponseDefinition render(Object answer, String path) {
        if (answer instanceof PageAnswer page) {
            return json(200, listBody(page, path)).build();
        }
        if (answer instanceof StreamAnswer stream) {
            return new ResponseDefinitionBuilder().withStatus(200)
                    .withHeader("Content-Type", "application/json")
                    .withHeader(StreamingFilter.MARKER, streams.register(stream))
                    .build();
        }
        if (answer instanceof StatusReply status) {
            ResponseDefinitionBuilder response = json(status.code(), status.json());
            if (status.retryAfterSeconds() != null) {
                response.withHeader("Retry-After", status.retryAfterSeconds().toString());
            }
            return response.build();
        }
        if (answer instanceof FaultReply fault) {
            return new ResponseDefinitionBuilder().withFault(fault.fault()).build();
        }
        if (answer instanceof RawReply raw) {
            return new ResponseDefinitionBuilder().withStatus(raw.status())
                    .withHeader("Content-Type", raw.contentType()).withBody(raw.body()).build();
        }
        throw new IllegalStateException("unknown answer " + answer);
    }

    private String listBody(PageAnswer page, String path) {
        var resource = discovery.resourceAt(path);
        String kind = resource.map(r -> r.kind() + "List").orElse("List");
        String apiVersion = resource.map(Discovery.Resource::groupVersion).orElse("v1");
        StringBuilder body = new StringBuilder("{\"kind\":\"").append(kind).append("\",\"apiVersion\":\"")
                .append(apiVersion).append("\",\"metadata\":{");
        StringJoiner metadata = new StringJoiner(",");
        if (page.resourceVersion() != null) {
            metadata.add("\"resourceVersion\":" + quote(page.resourceVersion()));
        }
        if (page.continueToken() != null) {
            metadata.add("\"continue\":" + quote(page.continueToken()));
        }
        body.append(metadata).append("},\"items\":[");
        StringJoiner items = new StringJoiner(",");
        page.items().forEach(item -> items.add(Replies.toJson(item)));
        return body.append(items).append("]}").toString();
    }

    private static String quote(String value) {
        return new com.google.gson.JsonPrimitive(value).toString();
    }

    private static ResponseDefinitionBuilder json(int status, String body) {
        return new ResponseDefinitionBuilder().withStatus(status).withHeader("Content-Type", "application/json")
                .withBody(body);
    }

    private static Map<String, String> parseQuery(String query) {
        Map<String, String> params = new LinkedHashMap<>();
        for (String pair : query.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            params.put(name, value);
        }
        return params;
    }

    /** The WireMock extension that hands every request to the script. */
    private final class ScriptedAnswers implements ResponseDefinitionTransformerV2 {

        @Override
        public String getName() {
            return "watchkeeper-script";
        }

        @Override
        public ResponseDefinition transform(ServeEvent serveEvent) {
            Request request = serveEvent.getRequest();
            return answer(request.getMethod().getName(), request.getUrl());
        }
    }
}
