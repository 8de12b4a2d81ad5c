package dev.watchkeeper.test.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.watchkeeper.test.VirtualTime;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The faults the chaos suite injects: failed requests, 410s, broken, malformed, silent and slow bodies. */
class WatchFaultInjectionTest extends InMemoryServerTest {

    private static final String CONFIGMAPS = "/api/v1/namespaces/default/configmaps";
    private static final String WATCH = CONFIGMAPS + "?watch=true&allowWatchBookmarks=true";

    @Test
    void failedRequestsAnswerTheCodeThenServeAgain() {
        server.failRequests(2, 500);
        assertThat(http.get(CONFIGMAPS).statusCode()).isEqualTo(500);
        assertThat(RawHttp.json(http.get(CONFIGMAPS)).get("reason").getAsString()).isEqualTo("InternalError");
        assertThat(http.get(CONFIGMAPS).statusCode()).isEqualTo(200);
        server.failRequests(1, 503);
        assertThat(http.get(CONFIGMAPS + "?watch=true").statusCode()).isEqualTo(503);
        assertThatThrownBy(() -> server.failRequests(1, 418)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void expiredWatchStartsAnswer410() {
        server.expireWatchStarts(1);
        HttpResponse<String> expired = http.get(CONFIGMAPS + "?watch=true&resourceVersion=1000");
        assertThat(expired.statusCode()).isEqualTo(410);
        assertThat(RawHttp.json(expired).get("reason").getAsString()).isEqualTo("Expired");
        assertThat(http.get(CONFIGMAPS).statusCode()).isEqualTo(200); // a list is not a watch start
        RawHttp.Watch next = http.watch(WATCH);
        await().until(() -> server.openWatches() == 1);
        assertThat(next.ended).isFalse();
    }

    @Test
    void expiredWatchesGetAnError410ButHistoryStays() {
        long before = server.resourceVersion();
        RawHttp.Watch watch = http.watch(WATCH + "&resourceVersion=" + before);
        await().until(() -> server.openWatches() == 1);
        server.create(configMap("a"));
        await().until(() -> watch.changes().contains("ADDED:a"));
        server.expireWatches();
        await().until(() -> watch.ended);
        assertThat(watch.changes()).containsExactly("ADDED:a", "ERROR:Expired");

        RawHttp.Watch again = http.watch(WATCH + "&resourceVersion=" + before);
        await().until(() -> again.changes().contains("ADDED:a"));
    }

    @Test
    void resetAndTruncatedWatchesEndWithoutTheLastChunk() throws Exception {
        for (Runnable fault : List.<Runnable>of(server::resetWatches, server::truncateWatches)) {
            Lines watch = lines(WATCH);
            await().until(() -> server.openWatches() == 1);
            fault.run();
            assertThatThrownBy(() -> watch.done.get(5, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class).hasRootCauseInstanceOf(IOException.class);
            await().until(() -> server.openWatches() == 0);
        }
    }

    @Test
    void aMalformedLineIsSentAndTheWatchGoesOn() {
        Lines watch = lines(WATCH);
        await().until(() -> server.openWatches() == 1);
        server.sendMalformedLine();
        server.create(configMap("after"));
        await().until(() -> watch.lines.stream().anyMatch(l -> l.contains("\"after\"")));
        assertThat(watch.lines.get(0)).startsWith("{\"type\":\"MODIFIED\",\"object\":{\"kind\":<html>");
    }

    @Test
    void stalledWatchesSendNothingThenDrop() {
        Lines watch = lines(WATCH);
        await().until(() -> server.openWatches() == 1);
        long start = System.nanoTime();
        server.stallWatches(Duration.ofMillis(1500));
        server.create(configMap("unseen"));
        // The drop ends the stall: whatever the watch sent during it (an event, a bookmark) came before.
        assertThatThrownBy(() -> watch.done.get(5, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).as("longer than the 1 s bookmark interval")
                .isGreaterThanOrEqualTo(Duration.ofMillis(1500));
        assertThat(watch.lines).isEmpty();
    }

    @Test
    void slowBodiesTrickleButArriveWhole() {
        for (int i = 0; i < 10; i++) {
            server.create(configMap("big-" + i).data(Map.of("v", "x".repeat(1000))));
        }
        server.slowBodies(Duration.ofMillis(20));
        long start = System.nanoTime();
        HttpResponse<String> list = http.get(CONFIGMAPS);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(200));
        assertThat(RawHttp.json(list).getAsJsonArray("items")).hasSize(10);
        server.slowBodies(Duration.ZERO);
    }

    @Test
    void outagesRunOnTheOutageClock() {
        VirtualTime time = new VirtualTime();
        try (InMemoryApiServer timed = InMemoryApiServer.builder().outageClock(time.clock()).build().start()) {
            RawHttp timedHttp = new RawHttp(timed);
            timed.outage(Duration.ofMinutes(5));
            assertThat(timedHttp.get(CONFIGMAPS).statusCode()).isEqualTo(503);
            time.advance(Duration.ofMinutes(4));
            assertThat(timedHttp.get(CONFIGMAPS).statusCode()).isEqualTo(503);
            time.advance(Duration.ofMinutes(1));
            assertThat(timedHttp.get(CONFIGMAPS).statusCode()).isEqualTo(200);
        }
    }

    /** A watch read as raw lines, so a line that is not JSON is kept rather than failing the read. */
    private Lines lines(String pathAndQuery) {
        Lines lines = new Lines();
        HttpRequest request = HttpRequest.newBuilder(URI.create(server.url() + pathAndQuery)).GET().build();
        lines.done = HttpClient.newHttpClient().sendAsync(request, HttpResponse.BodyHandlers.ofLines())
                .thenAccept(response -> response.body().forEach(lines.lines::add));
        return lines;
    }

    private static final class Lines {
        final List<String> lines = new CopyOnWriteArrayList<>();
        CompletableFuture<Void> done;
    }

    private static V1ConfigMap configMap(String name) {
        return new V1ConfigMap().apiVersion("v1").kind("ConfigMap")
                .metadata(new V1ObjectMeta().namespace("default").name(name));
    }
}
