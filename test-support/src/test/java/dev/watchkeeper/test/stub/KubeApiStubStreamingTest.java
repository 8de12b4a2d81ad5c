package dev.watchkeeper.test.stub;

import static dev.watchkeeper.test.stub.Replies.added;
import static dev.watchkeeper.test.stub.Replies.cm;
import static dev.watchkeeper.test.stub.Replies.emptyWatch;
import static dev.watchkeeper.test.stub.Replies.events;
import static dev.watchkeeper.test.stub.Replies.modified;
import static dev.watchkeeper.test.stub.Replies.notJson;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Watch bodies reach the client line by line and end as scripted. */
class KubeApiStubStreamingTest {

    private static final String PATH = "/api/v1/namespaces/default/configmaps";
    private static final Duration LIMIT = Duration.ofSeconds(10);

    private final KubeApiStub stub = new KubeApiStub();
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @BeforeEach
    void start() {
        stub.start();
    }

    @AfterEach
    void stop() {
        stub.close();
    }

    @Test
    void eventsAreFlushedWhileTheStreamStaysOpen() {
        stub.on(PATH).watch(events(added(cm("a", "1")), modified(cm("a", "2"))).thenStayOpen());

        assertTimeoutPreemptively(LIMIT, () -> {
            HttpResponse<java.io.InputStream> response = watch();
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("Transfer-Encoding")).hasValue("chunked");
            BufferedReader lines = reader(response);

            assertThat(lines.readLine()).startsWith("{\"type\":\"ADDED\"").contains("\"name\":\"a\"");
            assertThat(lines.readLine()).startsWith("{\"type\":\"MODIFIED\"").contains("\"resourceVersion\":\"2\"");
            assertThat(stub.openStreams()).isEqualTo(1);

            stub.reset();
            assertThat(lines.readLine()).isNull();
        });
    }

    @Test
    void abruptResetFailsTheReadAfterTheEvents() {
        stub.on(PATH).watch(events(added(cm("a", "1")), notJson("{oops")).thenReset());

        // OkHttp, as client-java uses: it reads the socket synchronously, so it sees every flushed line before the
        // broken end (the JDK client may drop buffered lines once it learns of the failure)
        okhttp3.OkHttpClient okhttp = stub.apiClient().getHttpClient();
        okhttp3.Request request = new okhttp3.Request.Builder().url(stub.url() + PATH + "?watch=true").build();
        assertTimeoutPreemptively(LIMIT, () -> {
            try (okhttp3.Response response = okhttp.newCall(request).execute()) {
                okio.BufferedSource lines = response.body().source();

                assertThat(lines.readUtf8Line()).startsWith("{\"type\":\"ADDED\"");
                assertThat(lines.readUtf8Line()).isEqualTo("{oops");
                assertThatThrownBy(lines::readUtf8Line).isInstanceOf(IOException.class);
            }
        });
    }

    @Test
    void eofEndsTheBodyCleanly() {
        stub.on(PATH).watch(events(added(cm("a", "1"))));

        assertTimeoutPreemptively(LIMIT, () -> {
            BufferedReader lines = reader(watch());

            assertThat(lines.readLine()).startsWith("{\"type\":\"ADDED\"");
            assertThat(lines.readLine()).isNull();
        });
    }

    @Test
    void emptyWatchEndsAtOnce() {
        stub.on(PATH).watch(emptyWatch());

        assertTimeoutPreemptively(LIMIT, () -> {
            HttpResponse<java.io.InputStream> response = watch();
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(reader(response).readLine()).isNull();
        });
    }

    @Test
    void dribbledEventsArriveInOrder() {
        stub.on(PATH).watch(events(added(cm("a", "1")), added(cm("b", "2"))).dribble(Duration.ofMillis(50)));

        assertTimeoutPreemptively(LIMIT, () -> {
            BufferedReader lines = reader(watch());

            assertThat(lines.readLine()).contains("\"name\":\"a\"");
            assertThat(lines.readLine()).contains("\"name\":\"b\"");
            assertThat(lines.readLine()).isNull();
        });
    }

    @Test
    void endOpenStreamsKeepsTheScript() {
        stub.on(PATH).watch(events(added(cm("a", "1"))).thenStayOpen()).watch(events(added(cm("b", "2"))));

        assertTimeoutPreemptively(LIMIT, () -> {
            BufferedReader first = reader(watch());
            assertThat(first.readLine()).contains("\"name\":\"a\"");

            stub.endOpenStreams();

            assertThat(first.readLine()).isNull();
            assertThat(reader(watch()).readLine()).contains("\"name\":\"b\"");
            stub.assertScriptConsumed();
        });
    }

    @Test
    void closeEndsOpenStreams() {
        stub.on(PATH).watch(events(added(cm("a", "1"))).thenStayOpen());

        assertTimeoutPreemptively(LIMIT, () -> {
            BufferedReader lines = reader(watch());
            assertThat(lines.readLine()).contains("\"name\":\"a\"");

            stub.close();

            assertThat(lines.readLine()).isNull();
            assertThat(stub.openStreams()).isZero();
        });
    }

    @Test
    void closeLeavesNoServerThreads() {
        stub.close();
        java.util.Set<Thread> before = Thread.getAllStackTraces().keySet();
        KubeApiStub own = new KubeApiStub().start();
        own.on(PATH).watch(events(added(cm("a", "1"))).thenStayOpen());
        assertTimeoutPreemptively(LIMIT, () -> {
            HttpRequest request = HttpRequest.newBuilder(URI.create(own.url() + PATH + "?watch=true")).build();
            reader(http.send(request, HttpResponse.BodyHandlers.ofInputStream())).readLine();

            own.close();

            org.awaitility.Awaitility.await().atMost(LIMIT).until(() -> Thread.getAllStackTraces().keySet().stream()
                    .filter(t -> !before.contains(t) && t.isAlive())
                    .noneMatch(t -> t.getName().startsWith("qtp") || t.getName().contains("WireMock")));
        });
    }

    private HttpResponse<java.io.InputStream> watch() throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(stub.url() + PATH + "?watch=true&resourceVersion=1"))
                .build();
        return http.send(request, HttpResponse.BodyHandlers.ofInputStream());
    }

    private static BufferedReader reader(HttpResponse<java.io.InputStream> response) {
        return new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8));
    }
}
