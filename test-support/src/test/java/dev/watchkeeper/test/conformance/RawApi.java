package dev.watchkeeper.test.conformance;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.Pair;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import okhttp3.Request;
import okhttp3.Response;

/**
 * GETs with query parameters the generated client does not know (e.g. {@code shardSelector}), answered as JSON,
 * through the client's own HTTP client and credentials.
 */
record RawApi(ApiClient client) {

    /** A response: its HTTP code and JSON body (a list, or a {@code Status}). */
    record Answer(int code, JsonObject body) {
    }

    Answer get(String path, Map<String, String> query) throws IOException, ApiException {
        try (Response response = client.getHttpClient().newCall(request(path, query)).execute()) {
            return new Answer(response.code(), JsonParser.parseString(response.body().string()).getAsJsonObject());
        }
    }

    /** A watch, open until closed or until the server ends it; the caller names {@code timeoutSeconds}. */
    Events watch(String path, Map<String, String> query) throws IOException, ApiException {
        Map<String, String> watchQuery = new HashMap<>(query);
        watchQuery.put("watch", "true");
        return new Events(client.getHttpClient().newCall(request(path, watchQuery)).execute());
    }

    private Request request(String path, Map<String, String> query) throws ApiException {
        List<Pair> pairs = query.entrySet().stream().map(e -> new Pair(e.getKey(), e.getValue())).toList();
        return client.buildRequest(client.getBasePath(), path, "GET", pairs, List.of(), null,
                new HashMap<>(Map.of("Accept", "application/json")), new HashMap<>(), new HashMap<>(),
                new String[] {"BearerToken"}, null);
    }

    /** The events of an open watch, one JSON line each. */
    record Events(Response response) implements AutoCloseable {

        /** The HTTP code the watch was answered with. */
        int code() {
            return response.code();
        }

        /** The next event, waiting for it; {@code null} once the server ended the watch. */
        JsonObject next() throws IOException {
            String line = response.body().source().readUtf8Line();
            return line == null ? null : JsonParser.parseString(line).getAsJsonObject();
        }

        @Override
        public void close() {
            response.close();
        }
    }
}
