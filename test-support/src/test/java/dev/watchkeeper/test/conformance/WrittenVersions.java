package dev.watchkeeper.test.conformance;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.watchkeeper.internal.api.ResourceVersions;
import io.kubernetes.client.openapi.ApiClient;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.Interceptor;
import okhttp3.Request;
import okhttp3.Response;
import okio.Buffer;

/**
 * The versions a client's writes of one custom resource produced, per object name, and the 409 answers to writes that
 * tested a version older than one the client had written itself already: a write made from a stale cache.
 */
final class WrittenVersions implements Interceptor {

    private final String plural;
    private final Map<String, String> lastWritten = new ConcurrentHashMap<>();
    private final AtomicInteger staleConflicts = new AtomicInteger();

    WrittenVersions(String plural) {
        this.plural = plural;
    }

    /** {@code client} with this record in front of its HTTP client. */
    ApiClient attachTo(ApiClient client) {
        client.setHttpClient(client.getHttpClient().newBuilder().addInterceptor(this).build());
        return client;
    }

    /** The latest version this client wrote of {@code name}, or {@code null}. */
    String lastWritten(String name) {
        return lastWritten.get(name);
    }

    int staleConflicts() {
        return staleConflicts.get();
    }

    @Override
    public Response intercept(Chain chain) throws IOException {
        Request request = chain.request();
        List<String> segments = request.url().pathSegments();
        int at = segments.indexOf(plural);
        boolean write = ("PUT".equals(request.method()) || "PATCH".equals(request.method()))
                && at >= 0 && at + 1 < segments.size();
        if (!write) {
            return chain.proceed(request);
        }
        String name = segments.get(at + 1);
        String tested = testedVersion(request);
        Response response = chain.proceed(request);
        if (response.isSuccessful()) {
            JsonObject answer = JsonParser.parseString(response.peekBody(Long.MAX_VALUE).string()).getAsJsonObject();
            String version = answer.getAsJsonObject("metadata").get("resourceVersion").getAsString();
            lastWritten.merge(name, version, (old, now) -> ResourceVersions.isAtLeast(now, old) ? now : old);
        } else if (response.code() == 409 && tested != null) {
            String written = lastWritten.get(name);
            if (written != null && !ResourceVersions.isAtLeast(tested, written)) {
                staleConflicts.incrementAndGet();
            }
        }
        return response;
    }

    /** The resourceVersion an update sends as its precondition, {@code null} for a patch without one. */
    private static String testedVersion(Request request) throws IOException {
        if (request.body() == null || !"PUT".equals(request.method())) {
            return null;
        }
        Buffer body = new Buffer();
        request.body().writeTo(body);
        JsonObject metadata = JsonParser.parseString(body.readUtf8()).getAsJsonObject().getAsJsonObject("metadata");
        return metadata == null || !metadata.has("resourceVersion") ? null
                : metadata.get("resourceVersion").getAsString();
    }
}
