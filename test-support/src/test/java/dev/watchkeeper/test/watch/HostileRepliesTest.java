package dev.watchkeeper.test.watch;

import static dev.watchkeeper.test.stub.Replies.added;
import static dev.watchkeeper.test.stub.Replies.cm;
import static dev.watchkeeper.test.stub.Replies.errorEvent;
import static dev.watchkeeper.test.stub.Replies.events;
import static dev.watchkeeper.test.stub.Replies.line;
import static dev.watchkeeper.test.stub.Replies.modified;
import static dev.watchkeeper.test.stub.Replies.nonJson200;
import static dev.watchkeeper.test.stub.Replies.page;
import static dev.watchkeeper.test.stub.Replies.status;
import static dev.watchkeeper.test.stub.Replies.statusOf;
import static dev.watchkeeper.test.stub.Replies.tooOldResourceVersion;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import dev.watchkeeper.internal.backoff.BackOffSettings;
import dev.watchkeeper.internal.resource.ResourceType;
import dev.watchkeeper.test.EventRecorder;
import dev.watchkeeper.test.VirtualTime;
import dev.watchkeeper.test.stub.KubeApiStub;
import dev.watchkeeper.test.stub.ListAnswer;
import dev.watchkeeper.test.stub.RawReply;
import dev.watchkeeper.test.stub.RecordedRequest;
import dev.watchkeeper.test.stub.WatchAnswer;
import dev.watchkeeper.test.stub.WatchLine;
import dev.watchkeeper.watch.WatchError;
import dev.watchkeeper.internal.watch.WatchOptions;
import dev.watchkeeper.internal.watch.WatchScope;
import dev.watchkeeper.internal.watch.Watcher;
import dev.watchkeeper.internal.watch.http.HttpWatchApi;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.util.credentials.TokenFileAuthentication;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A corpus of hostile server replies: each case names what the server sends, the error the user reads (kind, code,
 * message), and shows that the watcher recovers with every object the server sent intact in its store
 * (docs/semantics.md §3, §7, §12). Scripted on the WireMock stub in virtual time; what a well-behaved HTTP server
 * cannot send goes through {@link RawHttpServer}.
 */
class HostileRepliesTest {

    private static final String PATH = "/api/v1/namespaces/default/configmaps";
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final String OBJECT_X = "{\"kind\":\"ConfigMap\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"x\","
            + "\"namespace\":\"default\",\"resourceVersion\":\"7\"}}";

    private final KubeApiStub stub = new KubeApiStub();
    private final VirtualTime time = new VirtualTime();
    private final EventRecorder<V1ConfigMap> recorder = new EventRecorder<>();
    private final List<Watcher<?>> watchers = new ArrayList<>();
    private final List<RawHttpServer> servers = new ArrayList<>();

    @BeforeEach
    void startStub() {
        stub.start();
    }

    @AfterEach
    void closeAll() {
        watchers.forEach(Watcher::close);
        servers.forEach(RawHttpServer::close);
        stub.close();
    }

    // ---- watch lines

    /** What the watcher does with a hostile line in a watch. */
    enum Outcome {
        /** reported as the error and skipped; the watch goes on */
        SKIPPED,
        /** reported as the error; the watch breaks, and after a backoff resumes from the last version */
        BROKEN,
        /** nothing to report or use: no event */
        IGNORED
    }

    static Stream<Arguments> hostileWatchLines() {
        return Stream.of(
                watchCase("a truncated JSON line", () -> "{\"type\":\"ADDED\",\"object\":{\"metadata\":{\"name\":\"x\"",
                        Outcome.BROKEN, "Error(WatchFailed)", "watch of v1/configmaps broke: the server sent a line "
                                + "that is not JSON (it ends early at column 49)"),
                watchCase("a proxy's HTML page in a watch", () -> "<html><body><h1>502 Bad Gateway</h1></body></html>",
                        Outcome.BROKEN, "Error(WatchFailed)", null),
                watchCase("a JSON array", () -> "[\"ADDED\"]", Outcome.BROKEN, "Error(WatchFailed)",
                        "watch of v1/configmaps broke: the server sent a line that is not a JSON object"),
                watchCase("a JSON string", () -> "\"ADDED\"", Outcome.BROKEN, "Error(WatchFailed)",
                        "watch of v1/configmaps broke: the server sent a line that is not a JSON object"),
                watchCase("a missing type", () -> "{\"object\":" + OBJECT_X + "}", Outcome.SKIPPED,
                        "Error(DecodeFailed)", "skipped an event of v1/configmaps that cannot be decoded: an event "
                                + "without a type (default/x at resourceVersion 7)"),
                watchCase("a type that is an object", () -> "{\"type\":{\"name\":\"ADDED\"},\"object\":" + OBJECT_X
                        + "}", Outcome.SKIPPED, "Error(DecodeFailed)", "skipped an event of v1/configmaps that cannot "
                                + "be decoded: an event without a type (default/x at resourceVersion 7)"),
                watchCase("an unknown event type", () -> "{\"type\":\"RENAMED\",\"object\":" + OBJECT_X + "}",
                        Outcome.SKIPPED, "Error(DecodeFailed)", "skipped an event of v1/configmaps that cannot be "
                                + "decoded: an event of unknown type 'RENAMED' (default/x at resourceVersion 7)"),
                watchCase("a lower-case event type", () -> "{\"type\":\"added\",\"object\":" + OBJECT_X + "}",
                        Outcome.SKIPPED, "Error(DecodeFailed)", "skipped an event of v1/configmaps that cannot be "
                                + "decoded: an event of unknown type 'added' (default/x at resourceVersion 7)"),
                watchCase("object: null", () -> "{\"type\":\"ADDED\",\"object\":null}", Outcome.SKIPPED,
                        "Error(DecodeFailed)", "skipped an event of v1/configmaps that cannot be decoded: ADDED of an "
                                + "object that is not a JSON object"),
                watchCase("no object", () -> "{\"type\":\"DELETED\"}", Outcome.SKIPPED, "Error(DecodeFailed)",
                        "skipped an event of v1/configmaps that cannot be decoded: DELETED of an object that is not a "
                                + "JSON object"),
                watchCase("an object that is a string", () -> "{\"type\":\"MODIFIED\",\"object\":\"x\"}",
                        Outcome.SKIPPED, "Error(DecodeFailed)", "skipped an event of v1/configmaps that cannot be "
                                + "decoded: MODIFIED of an object that is not a JSON object"),
                watchCase("an object without metadata", () -> "{\"type\":\"ADDED\",\"object\":{\"kind\":\"ConfigMap\","
                        + "\"data\":{\"k\":\"v\"}}}", Outcome.SKIPPED, "Error(DecodeFailed)", "skipped an event of "
                                + "v1/configmaps that cannot be decoded: ADDED of an object without metadata.name"),
                watchCase("an object without a name", () -> "{\"type\":\"ADDED\",\"object\":{\"metadata\":"
                        + "{\"namespace\":\"default\",\"resourceVersion\":\"7\"}}}", Outcome.SKIPPED,
                        "Error(DecodeFailed)", "skipped an event of v1/configmaps that cannot be decoded: ADDED of an "
                                + "object without metadata.name (unnamed at resourceVersion 7)"),
                watchCase("data of the wrong JSON type", () -> OBJECT_X.replace("}}", "},\"data\":[1]}")
                        .transform(object -> "{\"type\":\"ADDED\",\"object\":" + object + "}"), Outcome.SKIPPED,
                        "Error(DecodeFailed)", "skipped an event of v1/configmaps that cannot be decoded: ADDED of an "
                                + "object that does not decode (JsonSyntaxException) (default/x at resourceVersion 7)"),
                watchCase("metadata of the wrong JSON type", () -> "{\"type\":\"ADDED\",\"object\":{\"metadata\":"
                        + "[\"x\"]}}", Outcome.SKIPPED, "Error(DecodeFailed)", "skipped an event of v1/configmaps "
                                + "that cannot be decoded: ADDED of an object that does not decode "
                                + "(JsonSyntaxException)"),
                watchCase("a repeated type key (the last one counts)", () -> "{\"type\":\"ADDED\",\"object\":"
                        + OBJECT_X + ",\"type\":\"BOGUS\"}", Outcome.SKIPPED, "Error(DecodeFailed)",
                        "skipped an event of v1/configmaps that cannot be decoded: an event of unknown type 'BOGUS' "
                                + "(default/x at resourceVersion 7)"),
                watchCase("a BOOKMARK without resourceVersion", () -> "{\"type\":\"BOOKMARK\",\"object\":"
                        + "{\"kind\":\"ConfigMap\",\"apiVersion\":\"v1\",\"metadata\":{}}}", Outcome.IGNORED, null,
                        null),
                watchCase("a BOOKMARK with object: null", () -> "{\"type\":\"BOOKMARK\",\"object\":null}",
                        Outcome.IGNORED, null, null),
                watchCase("an ERROR whose object is a ConfigMap", () -> "{\"type\":\"ERROR\",\"object\":" + OBJECT_X
                        + "}", Outcome.BROKEN, "Error(WatchError)",
                        "the watch of v1/configmaps sent an ERROR event without a Status code"),
                watchCase("an ERROR with object: null", () -> "{\"type\":\"ERROR\",\"object\":null}", Outcome.BROKEN,
                        "Error(WatchError)", "the watch of v1/configmaps sent an ERROR event without a Status code"),
                watchCase("an ERROR whose code is not a number", () -> "{\"type\":\"ERROR\",\"object\":{\"kind\":"
                        + "\"Status\",\"code\":\"soon\",\"reason\":\"Later\"}}", Outcome.BROKEN, "Error(WatchError)",
                        "the watch of v1/configmaps sent an ERROR event without a Status code"),
                watchCase("an ERROR echoing a bearer token", () -> errorEvent(statusOf(500, "InternalError",
                        "request with Authorization: Bearer eyJhbGciOiJSUzI1NiJ9.c2VjcmV0.c2ln failed", null, null))
                        .text(), Outcome.BROKEN, "Error(WatchError 500)", "the watch of v1/configmaps sent an error "
                                + "500 InternalError: request with Authorization: Bearer <redacted> failed"),
                watchCase("an ERROR echoing a Secret's data", () -> errorEvent(statusOf(500, "InternalError",
                        "cannot encode {\"kind\":\"Secret\",\"data\":{\"password\":\"aHVudGVyMg==\"}}", null, null))
                        .text(), Outcome.BROKEN, "Error(WatchError 500)", "the watch of v1/configmaps sent an error "
                                + "500 InternalError: cannot encode {\"kind\":\"Secret\",…"),
                watchCase("a 50 MB line", () -> "{\"type\":\"ADDED\",\"object\":{\"data\":{\"k\":\""
                        + "x".repeat(50 * 1024 * 1024) + "\"}}}", Outcome.BROKEN, "Error(WatchFailed)",
                        "watch of v1/configmaps broke: the server sent an event line longer than the limit of 16MB "
                                + "(watchkeeper.watch.max-event-size)"));
    }

    private static Arguments watchCase(String name, Supplier<String> line, Outcome outcome, String error,
            String message) {
        return argumentSet(name, line, outcome, error, message);
    }

    @ParameterizedTest
    @MethodSource("hostileWatchLines")
    void aHostileWatchLineIsReportedAndNothingIsLost(Supplier<String> hostile, Outcome outcome, String error,
            String message) {
        stub.on(PATH)
                .list(page(cm("a", "5")).resourceVersion("5"))
                .watch(events(added(cm("b", "6")), line(hostile.get()), added(cm("c", "8"))))
                .watch(outcome == Outcome.BROKEN
                        ? events(added(cm("c", "8")), added(cm("d", "9"))).thenStayOpen()
                        : events(added(cm("d", "9"))).thenStayOpen());

        Watcher<V1ConfigMap> watcher = start(stub.apiClient());

        List<String> expected = new ArrayList<>(List.of("Init", "InitApply(a)", "InitDone", "Apply(b)"));
        if (error != null) {
            expected.add(error);
        }
        expected.addAll(List.of("Apply(c)", "Apply(d)"));
        assertThat(recorder.awaitEvents(expected.size(), WAIT)).containsExactlyElementsOf(expected);
        if (message != null) {
            assertThat(recorder.errors()).extracting(WatchError::message).containsExactly(message);
        }
        assertThat(stub.watchRequests(PATH)).extracting(RecordedRequest::resourceVersion)
                .containsExactly("5", outcome == Outcome.BROKEN ? "6" : "8");
        assertThat(time.sleeps()).hasSize(outcome == Outcome.BROKEN ? 1 : 0);
        assertStore(watcher, "a@5", "b@6", "c@8", "d@9");
        stub.assertScriptConsumed();
        stub.assertNoViolations();
    }

    // ---- list replies

    static Stream<Arguments> hostileListReplies() {
        return Stream.of(
                listCase("a 200 with a body that is not JSON", new RawReply(200, "text/plain", "ok"),
                        "Error(InitialListFailed 200)", "the list of v1/configmaps returned a body that is not a "
                                + "Kubernetes list (MalformedJsonException)"),
                listCase("a proxy's HTML login page with 200", nonJson200("<html><body>Please sign in</body></html>"),
                        "Error(InitialListFailed 200)", "the list of v1/configmaps returned a body that is not a "
                                + "Kubernetes list (MalformedJsonException)"),
                listCase("a proxy's HTML error page with 502", new RawReply(502, "text/html",
                        "<html><body><h1>502 Bad Gateway</h1></body></html>"), "Error(InitialListFailed 502)",
                        "server error 502 on list v1/configmaps"),
                listCase("a truncated list", new RawReply(200, "application/json", "{\"kind\":\"ConfigMapList\","
                        + "\"metadata\":{\"resourceVersion\":\"5\"},\"items\":[{\"metadata\":"),
                        "Error(InitialListFailed 200)", "the list of v1/configmaps returned a body that is not a "
                                + "Kubernetes list (JsonSyntaxException)"),
                listCase("a list page without items", new RawReply(200, "application/json", "{\"kind\":"
                        + "\"ConfigMapList\",\"apiVersion\":\"v1\",\"metadata\":{\"resourceVersion\":\"5\"}}"),
                        "Error(InitialListFailed 200)", "the list of v1/configmaps returned a body that is not a "
                                + "Kubernetes list (no items)"),
                listCase("a Status with HTTP 200", new RawReply(200, "application/json", statusOf(500,
                        "InternalError", "etcd timed out", null, null).json()), "Error(InitialListFailed 200)",
                        "the list of v1/configmaps returned a body that is not a Kubernetes list (no items)"),
                listCase("items of the wrong JSON type", new RawReply(200, "application/json", "{\"metadata\":"
                        + "{\"resourceVersion\":\"5\"},\"items\":{\"a\":1}}"), "Error(InitialListFailed 200)",
                        "the list of v1/configmaps returned a body that is not a Kubernetes list "
                                + "(IllegalStateException)"),
                listCase("an empty body with 200", new RawReply(200, "application/json", ""),
                        "Error(InitialListFailed 200)", "the list of v1/configmaps returned a body that is not a "
                                + "Kubernetes list (EOFException)"),
                listCase("a 401 (before credentials are fixed)", status(401), "Error(InitialListFailed 401)",
                        "unauthorized: check the kubeconfig credentials (HTTP 401 on list v1/configmaps)"),
                listCase("a Status echoing the Authorization header", statusOf(500, "InternalError",
                        "proxy error for GET with Authorization: Bearer sha256~s3cr3t-t0ken", null, null),
                        "Error(InitialListFailed 500)", "server error 500 on list v1/configmaps (proxy error for GET "
                                + "with Authorization: Bearer <redacted>)"),
                listCase("a Status echoing a Secret", statusOf(422, "Invalid", "Secret \"s\" is invalid: "
                        + "{\"metadata\":{\"name\":\"s\"},\"stringData\":{\"password\":\"hunter2\"}}", null, null),
                        "Error(InitialListFailed 422)", "HTTP 422 on list v1/configmaps (Secret \"s\" is invalid: "
                                + "{\"metadata\":{\"name\":\"s\"},…)"),
                listCase("a Status with a 10 kB message", statusOf(500, "InternalError", "y".repeat(10_000), null,
                        null), "Error(InitialListFailed 500)", "server error 500 on list v1/configmaps ("
                                + "y".repeat(200) + "…)"));
    }

    private static Arguments listCase(String name, ListAnswer reply, String error, String message) {
        return argumentSet(name, reply, error, message);
    }

    @ParameterizedTest
    @MethodSource("hostileListReplies")
    void aHostileListReplyIsReportedAndTheListRetried(ListAnswer reply, String error, String message) {
        stub.on(PATH)
                .list(reply)
                .list(page(cm("a", "5")).resourceVersion("5"))
                .watch(events().thenStayOpen());

        Watcher<V1ConfigMap> watcher = start(stub.apiClient());

        assertThat(recorder.awaitEvents(5, WAIT)).containsExactly("Init", error, "Init", "InitApply(a)", "InitDone");
        assertThat(recorder.errors()).extracting(WatchError::message).containsExactly(message);
        assertThat(time.sleeps()).singleElement().satisfies(d -> assertBetween(d, 800, 1_600));
        assertStore(watcher, "a@5");
        stub.awaitScriptConsumed(WAIT);
        stub.assertNoViolations();
    }

    @Test
    void aContinueTokenAnsweredWithItselfRelistsAfterABackoffInsteadOfPagingForever() {
        stub.on(PATH)
                .list(page(cm("a", "3")).continueToken("c1"))
                .list(page(cm("b", "4")).continueToken("c1"))
                .list(page(cm("a", "3")).continueToken("c2"))
                .list(page(cm("b", "4")).resourceVersion("5"))
                .watch(events().thenStayOpen());

        Watcher<V1ConfigMap> watcher = start(stub.apiClient());

        assertThat(recorder.awaitEvents(8, WAIT)).containsExactly("Init", "InitApply(a)", "InitApply(b)",
                "Error(InitialListFailed)", "Init", "InitApply(a)", "InitApply(b)", "InitDone");
        assertThat(recorder.errors()).extracting(WatchError::message).containsExactly("the list of v1/configmaps "
                + "answered a continue token with the same token, so it would never end; relisting");
        assertThat(stub.listRequests(PATH)).extracting(RecordedRequest::continueToken)
                .containsExactly(null, "c1", null, "c2");
        assertThat(time.sleeps()).hasSize(1);
        assertStore(watcher, "a@3", "b@4");
    }

    @Test
    void aResourceVersionGoingBackwardsIsResumedFromAsTheServerSentItAndA410Relists() {
        // resourceVersions are opaque (as client-go treats them): the watcher never compares them
        stub.on(PATH)
                .list(page(cm("a", "5")).resourceVersion("5"))
                .watch(events(modified(cm("a", "7")), added(cm("b", "3"))))
                .watch(tooOldResourceVersion("3", "7"))
                .list(page(cm("a", "7"), cm("b", "8")).resourceVersion("8"))
                .watch(events().thenStayOpen());

        Watcher<V1ConfigMap> watcher = start(stub.apiClient());

        assertThat(recorder.awaitEvents(10, WAIT)).containsExactly("Init", "InitApply(a)", "InitDone", "Apply(a)",
                "Apply(b)", "Error(WatchStartFailed 410)", "Init", "InitApply(a)", "InitApply(b)", "InitDone");
        stub.awaitScriptConsumed(WAIT);
        assertThat(stub.watchRequests(PATH)).extracting(RecordedRequest::resourceVersion)
                .containsExactly("5", "3", "8");
        assertThat(time.sleeps()).isEmpty();
        assertStore(watcher, "a@7", "b@8");
    }

    @Test
    void aProxysHtmlErrorPageAtWatchStartBacksOffAndRewatchesFromTheSameVersion() {
        stub.on(PATH)
                .list(page(cm("a", "5")).resourceVersion("5"))
                .watch((WatchAnswer) new RawReply(502, "text/html", "<html><body>502 Bad Gateway</body></html>"))
                .watch(events(modified(cm("a", "6"))).thenStayOpen());

        Watcher<V1ConfigMap> watcher = start(stub.apiClient());

        assertThat(recorder.awaitEvents(5, WAIT)).containsExactly("Init", "InitApply(a)", "InitDone",
                "Error(WatchStartFailed 502)", "Apply(a)");
        assertThat(recorder.errors()).extracting(WatchError::message)
                .containsExactly("server error 502 on watch v1/configmaps");
        assertThat(stub.watchRequests(PATH)).extracting(RecordedRequest::resourceVersion).containsExactly("5", "5");
        assertStore(watcher, "a@6");
    }

    @Test
    void aFiveMegabyteObjectIsListedAndWatched() {
        String big = "z".repeat(5 * 1024 * 1024);
        stub.on(PATH)
                .list(page(cm("a", "5").data(Map.of("k", big))).resourceVersion("5"))
                .watch(events(modified(cm("a", "6").data(Map.of("k", big + "!")))).thenStayOpen());

        Watcher<V1ConfigMap> watcher = start(stub.apiClient());

        assertThat(recorder.awaitEvents(4, WAIT)).containsExactly("Init", "InitApply(a)", "InitDone", "Apply(a)");
        assertStore(watcher, "a@6");
        assertThat(watcher.store().list().get(0).getData().get("k")).hasSize(big.length() + 1);
    }

    @Test
    void repeatedKeysInAnObjectKeepTheLastValueAsTheApiServersJsonDoes() {
        stub.on(PATH)
                .list(page(cm("a", "5")).resourceVersion("5"))
                .watch(events(line("{\"type\":\"MODIFIED\",\"object\":{\"kind\":\"ConfigMap\",\"apiVersion\":\"v1\","
                        + "\"metadata\":{\"name\":\"a\",\"namespace\":\"default\",\"resourceVersion\":\"6\"},"
                        + "\"data\":{\"k\":\"first\",\"k\":\"last\"}}}")).thenStayOpen());

        Watcher<V1ConfigMap> watcher = start(stub.apiClient());

        assertThat(recorder.awaitEvents(4, WAIT)).containsExactly("Init", "InitApply(a)", "InitDone", "Apply(a)");
        assertThat(watcher.store().list().get(0).getData()).containsExactly(Map.entry("k", "last"));
    }

    // ---- Retry-After

    @Test
    void aNegativeRetryAfterIsIgnored() {
        stub.on(PATH)
                .list(statusOf(429, "TooManyRequests", "slow down", null, -5))
                .list(page(cm("a", "5")).resourceVersion("5"))
                .watch(events().thenStayOpen());

        start(stub.apiClient());

        assertThat(recorder.awaitEvents(5, WAIT)).containsExactly("Init", "Error(InitialListFailed 429)", "Init",
                "InitApply(a)", "InitDone");
        assertThat(recorder.errors()).extracting(WatchError::message)
                .containsExactly("too many requests: the server throttles list v1/configmaps");
        assertThat(time.sleeps()).singleElement().satisfies(d -> assertBetween(d, 800, 1_600));
    }

    @Test
    void aHugeRetryAfterIsCappedAtFiveMinutes() {
        stub.on(PATH)
                .list(statusOf(429, "TooManyRequests", "slow down", null, Integer.MAX_VALUE))
                .list(page(cm("a", "5")).resourceVersion("5"))
                .watch(events().thenStayOpen());

        start(stub.apiClient());

        assertThat(recorder.awaitEvents(5, WAIT)).containsExactly("Init", "Error(InitialListFailed 429)", "Init",
                "InitApply(a)", "InitDone");
        assertThat(recorder.errors()).extracting(WatchError::message)
                .containsExactly("too many requests: the server throttles list v1/configmaps; retrying after 300s");
        assertThat(time.sleeps()).containsExactly(Duration.ofMinutes(5));
    }

    @Test
    void aRetryAfterAsAnHttpDateIsIgnored() {
        RawHttpServer server = raw()
                .answer(RawHttpServer.response("429 Too Many Requests", "Content-Type: application/json\r\n"
                        + "Retry-After: Wed, 21 Oct 2026 07:28:00 GMT\r\n", statusOf(429, "TooManyRequests",
                        "slow down", null, null).json()))
                .answer(listOf("a", "5"));

        start(server.apiClient());

        assertThat(recorder.awaitEvents(5, WAIT)).containsExactly("Init", "Error(InitialListFailed 429)", "Init",
                "InitApply(a)", "InitDone");
        assertThat(recorder.errors()).extracting(WatchError::message)
                .containsExactly("too many requests: the server throttles list v1/configmaps");
        assertThat(time.sleeps()).singleElement().satisfies(d -> assertBetween(d, 800, 1_600));
    }

    // ---- what only a raw socket can send

    @Test
    void invalidUtf8BecomesReplacementCharactersAsTheApiServersJsonDoes() {
        byte[] item = concat("{\"kind\":\"ConfigMap\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"a\","
                + "\"namespace\":\"default\",\"resourceVersion\":\"5\"},\"data\":{\"k\":\"", new byte[] {(byte) 0xff,
                (byte) 0xc3}, "\"}}");
        byte[] list = concat("{\"kind\":\"ConfigMapList\",\"apiVersion\":\"v1\",\"metadata\":{\"resourceVersion\":"
                + "\"5\"},\"items\":[", item, "]}");
        byte[] watch = concat("{\"type\":\"ADD", new byte[] {(byte) 0xff}, "ED\",\"object\":" + OBJECT_X + "}\n"
                + "{\"type\":\"ADDED\",\"object\":" + OBJECT_X.replace("\"7\"", "\"8\"") + "}\n");
        RawHttpServer server = raw()
                .answer(RawHttpServer.response("200 OK", "Content-Type: application/json\r\n", list))
                .answer(RawHttpServer.response("200 OK", "Content-Type: application/json\r\n", watch));

        Watcher<V1ConfigMap> watcher = start(server.apiClient());

        assertThat(recorder.awaitEvents(5, WAIT)).containsExactly("Init", "InitApply(a)", "InitDone",
                "Error(DecodeFailed)", "Apply(x)");
        assertThat(recorder.errors()).extracting(WatchError::message).containsExactly("skipped an event of "
                + "v1/configmaps that cannot be decoded: an event of unknown type 'ADD\uFFFDED' (default/x at "
                + "resourceVersion 7)");
        assertStore(watcher, "a@5", "x@8");
        assertThat(watcher.store().list().get(0).getData()).containsExactly(Map.entry("k", "\uFFFD\uFFFD"));
    }

    @Test
    void aBodyThatIsNotTheGzipItsHeaderSaysIsReportedAsUnreadable() {
        RawHttpServer server = raw()
                .answer(RawHttpServer.response("200 OK", "Content-Type: application/json\r\nContent-Encoding: gzip\r\n",
                        "{\"kind\":\"ConfigMapList\",\"metadata\":{\"resourceVersion\":\"5\"},\"items\":[]}"))
                .answer(listOf("a", "5"));

        Watcher<V1ConfigMap> watcher = start(server.apiClient());

        assertThat(recorder.awaitEvents(5, WAIT)).containsExactly("Init", "Error(InitialListFailed 200)", "Init",
                "InitApply(a)", "InitDone");
        assertThat(recorder.errors()).extracting(WatchError::message).containsExactly("the body of the answer to list "
                + "v1/configmaps (HTTP 200, Content-Encoding gzip) cannot be read: ID1ID2: actual 0x00007b22 != "
                + "expected 0x00001f8b");
        assertStore(watcher, "a@5");
    }

    @Test
    void informationalAnswersBeforeTheRealOneAreSkipped() {
        RawHttpServer server = raw().answer(concat("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\n"
                + "Link: </style.css>; rel=preload\r\n\r\n", listOf("a", "5"), ""));

        Watcher<V1ConfigMap> watcher = start(server.apiClient());

        assertThat(recorder.awaitEvents(3, WAIT)).containsExactly("Init", "InitApply(a)", "InitDone");
        assertThat(recorder.errors()).isEmpty();
        assertStore(watcher, "a@5");
    }

    @Test
    void aLoneSwitchingProtocolsAnswerIsAFailedList() {
        RawHttpServer server = raw()
                .answer("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: close\r\n\r\n"
                        .getBytes(StandardCharsets.ISO_8859_1))
                .answer(listOf("a", "5"));

        Watcher<V1ConfigMap> watcher = start(server.apiClient());

        assertThat(recorder.awaitEvents(5, WAIT)).containsExactly("Init", "Error(InitialListFailed 101)", "Init",
                "InitApply(a)", "InitDone");
        assertThat(recorder.errors()).extracting(WatchError::message).containsExactly("HTTP 101 on list v1/configmaps");
        assertStore(watcher, "a@5");
    }

    @Test
    void aRedirectIsNotFollowedNeitherToAnotherHostNorToTheSameOne() {
        RawHttpServer elsewhere = raw();
        RawHttpServer server = raw()
                .answer(RawHttpServer.response("302 Found", "Location: " + elsewhere.url() + PATH + "?limit=500\r\n",
                        ""))
                .answer(RawHttpServer.response("301 Moved Permanently", "Location: /api/v1/configmaps\r\n", ""))
                .answer(listOf("a", "5"));
        ApiClient client = server.apiClient();
        client.setApiKeyPrefix("Bearer");
        client.setApiKey("known-token");

        Watcher<V1ConfigMap> watcher = start(client);

        assertThat(recorder.awaitEvents(7, WAIT)).containsExactly("Init", "Error(InitialListFailed 302)", "Init",
                "Error(InitialListFailed 301)", "Init", "InitApply(a)", "InitDone");
        assertThat(recorder.errors()).extracting(WatchError::message).containsExactly(
                "redirected to 127.0.0.1:" + port(elsewhere) + " (HTTP 302 on list v1/configmaps); an API server "
                        + "does not redirect, so it was not followed: check the server URL and any proxy in between",
                "redirected to 127.0.0.1:" + port(server) + " (HTTP 301 on list v1/configmaps); an API server "
                        + "does not redirect, so it was not followed: check the server URL and any proxy in between");
        assertThat(elsewhere.requests()).as("the other host never hears from the watcher").isEmpty();
        assertThat(server.requests()).filteredOn(head -> head.startsWith("GET " + PATH + "?limit=")).hasSize(3)
                .allSatisfy(head -> assertThat(head).containsIgnoringCase("authorization: Bearer known-token"));
        assertStore(watcher, "a@5");
    }

    @Test
    void aConnectionClosedInTheMiddleOfTheHeadersIsAFailedList() {
        RawHttpServer server = raw()
                .answer("HTTP/1.1 200 OK\r\nContent-Type: appli".getBytes(StandardCharsets.ISO_8859_1))
                .answer(listOf("a", "5"));

        Watcher<V1ConfigMap> watcher = start(server.apiClient());

        assertThat(recorder.awaitEvents(5, WAIT)).containsExactly("Init", "Error(InitialListFailed)", "Init",
                "InitApply(a)", "InitDone");
        assertThat(recorder.errors()).extracting(WatchError::message).containsExactly("the connection to 127.0.0.1:"
                + port(server) + " closed before a complete answer to list v1/configmaps");
        assertStore(watcher, "a@5");
    }

    @Test
    void a401ThenA200AfterTheTokenFileIsRotated(@TempDir Path dir) throws IOException {
        Path tokenFile = dir.resolve("token");
        Files.writeString(tokenFile, "old-token");
        RawHttpServer server = raw()
                .answer(RawHttpServer.response("401 Unauthorized", "Content-Type: application/json\r\n",
                        status(401).json()))
                .answer(listOf("a", "5"));
        ApiClient client = server.apiClient();
        // re-read the file on every request, as client-java does once its refresh period is over
        new TokenFileAuthentication(tokenFile.toString(), Duration.ZERO).provide(client);
        time.pauseAt(Duration.ofMillis(1));

        Watcher<V1ConfigMap> watcher = start(client);
        time.awaitPaused(WAIT);
        Files.writeString(tokenFile, "new-token");
        time.resume();

        assertThat(recorder.awaitEvents(5, WAIT)).containsExactly("Init", "Error(InitialListFailed 401)", "Init",
                "InitApply(a)", "InitDone");
        assertThat(recorder.errors()).extracting(WatchError::message)
                .containsExactly("unauthorized: check the kubeconfig credentials (HTTP 401 on list v1/configmaps)");
        assertThat(server.requests()).filteredOn(head -> head.startsWith("GET " + PATH + "?limit="))
                .satisfiesExactly(rejected -> assertThat(rejected).contains("Authorization: Bearer old-token"),
                        accepted -> assertThat(accepted).contains("Authorization: Bearer new-token"));
        assertStore(watcher, "a@5");
    }

    // ---- helpers

    private Watcher<V1ConfigMap> start(ApiClient client) {
        Watcher<V1ConfigMap> watcher = HttpWatchApi.watcher(client, ResourceType.of(V1ConfigMap.class))
                .name("cms")
                .scope(WatchScope.namespace("default"))
                .options(WatchOptions.defaults())
                .backOff(BackOffSettings.clientGo())
                .timeSource(time)
                .build();
        watchers.add(watcher);
        watcher.addListener(recorder);
        watcher.start();
        return watcher;
    }

    private RawHttpServer raw() {
        RawHttpServer server = new RawHttpServer();
        servers.add(server);
        return server;
    }

    private static int port(RawHttpServer server) {
        return Integer.parseInt(server.url().substring(server.url().lastIndexOf(':') + 1));
    }

    /** A list answer holding ConfigMap {@code name} at {@code resourceVersion}, which is also the list's. */
    private static byte[] listOf(String name, String resourceVersion) {
        return RawHttpServer.response("200 OK", "Content-Type: application/json\r\n", "{\"kind\":\"ConfigMapList\","
                + "\"apiVersion\":\"v1\",\"metadata\":{\"resourceVersion\":\"" + resourceVersion + "\"},\"items\":["
                + "{\"kind\":\"ConfigMap\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"" + name + "\",\"namespace\":"
                + "\"default\",\"resourceVersion\":\"" + resourceVersion + "\"}}]}");
    }

    private static byte[] concat(String before, byte[] middle, String after) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.writeBytes(before.getBytes(StandardCharsets.UTF_8));
        bytes.writeBytes(middle);
        bytes.writeBytes(after.getBytes(StandardCharsets.UTF_8));
        return bytes.toByteArray();
    }

    private static void assertStore(Watcher<V1ConfigMap> watcher, String... objects) {
        assertThat(watcher.store().list()).extracting(c -> c.getMetadata().getName() + "@"
                + c.getMetadata().getResourceVersion()).containsExactly(objects);
    }

    private static void assertBetween(Duration delay, long fromMillis, long untilMillis) {
        assertThat(delay.toMillis()).as("delay %s", delay).isGreaterThanOrEqualTo(fromMillis).isLessThan(untilMillis);
    }
}
