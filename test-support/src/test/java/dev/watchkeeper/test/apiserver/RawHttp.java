package dev.watchkeeper.test.apiserver;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;

/** Plain HTTP against the fake server, for what client-java cannot show (headers, raw watch lines). */
final class RawHttp {

    private final HttpClient client = HttpClient.newHttpClient();
    private final String baseUrl;

    RawHttp(InMemoryApiServer server) {
        this.baseUrl = server.url();
    }

    HttpResponse<String> get(String pathAndQuery) {
        return send("GET", pathAndQuery, null, null);
    }

    HttpResponse<String> send(String method, String pathAndQuery, String contentType, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + pathAndQuery))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        try {
            return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static JsonObject json(HttpResponse<String> response) {
        return JsonParser.parseString(response.body()).getAsJsonObject();
    }

    /** Opens a watch and collects its lines in the background. */
    Watch watch(String pathAndQuery) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl + pathAndQuery)).GET().build();
        Watch watch = new Watch();
        watch.response = client.sendAsync(request, HttpResponse.BodyHandlers.ofLines())
                .thenApply(response -> {
                    watch.status = response.statusCode();
                    try (Stream<String> lines = response.body()) {
                        watch.lines = lines;
                        lines.forEach(line -> watch.events.add(JsonParser.parseString(line).getAsJsonObject()));
                    }
                    watch.ended = true;
                    return response.statusCode();
                });
        return watch;
    }

    /** The events of one watch as they arrive. */
    static final class Watch {
        final List<JsonObject> events = new CopyOnWriteArrayList<>();
        volatile int status;
        volatile boolean ended;
        volatile Stream<String> lines;
        CompletableFuture<Integer> response;

        List<String> types() {
            return events.stream().map(e -> e.get("type").getAsString()).toList();
        }

        /** {@code TYPE:name} of each non-bookmark event. */
        List<String> changes() {
            return events.stream().filter(e -> !e.get("type").getAsString().equals("BOOKMARK"))
                    .map(e -> e.get("type").getAsString() + ":" + nameOrReason(e.getAsJsonObject("object")))
                    .toList();
        }

        /** Hangs up: closes the line stream, which cancels the response body. */
        void cancel() {
            Stream<String> open = lines;
            if (open != null) {
                open.close();
            }
            response.cancel(true);
        }

        private static String nameOrReason(JsonObject object) {
            JsonObject metadata = object.getAsJsonObject("metadata");
            return metadata.has("name") ? metadata.get("name").getAsString() : object.get("reason").getAsString();
        }
    }
}
