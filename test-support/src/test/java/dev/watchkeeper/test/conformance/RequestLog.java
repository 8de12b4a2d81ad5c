package dev.watchkeeper.test.conformance;

import io.kubernetes.client.openapi.ApiClient;
import okhttp3.HttpUrl;
import okhttp3.Interceptor;
import okhttp3.Request;
import okhttp3.Response;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

/**
 * Records the requests a client sends (so a scenario can count lists and watches on any server) and can refuse
 * them on the client side, which takes a watcher's connection down without touching the server.
 */
final class RequestLog implements Interceptor {

    private final List<Request> requests = new CopyOnWriteArrayList<>();
    private volatile boolean refusing;

    /** {@code client} with this log in front of its HTTP client. */
    ApiClient attachTo(ApiClient client) {
        client.setHttpClient(client.getHttpClient().newBuilder().addInterceptor(this).build());
        return client;
    }

    /** While set, every request fails with an {@link IOException}, as if the server could not be reached. */
    void refuse(boolean refuse) {
        refusing = refuse;
    }

    @Override
    public Response intercept(Chain chain) throws IOException {
        requests.add(chain.request());
        if (refusing) {
            throw new IOException("refused by the test");
        }
        return chain.proceed(chain.request());
    }

    /** Requests whose path ends with {@code /plural} (lists and watches of a collection). */
    List<HttpUrl> collection(String plural) {
        return requests.stream().map(Request::url).filter(u -> u.encodedPath().endsWith("/" + plural)).toList();
    }

    /** Every request with {@code method}, oldest first. */
    List<Request> withMethod(String method) {
        return requests.stream().filter(r -> r.method().equals(method)).toList();
    }

    List<HttpUrl> lists(String plural) {
        return collection(plural).stream().filter(Predicate.not(RequestLog::isWatch)).toList();
    }

    List<HttpUrl> watches(String plural) {
        return collection(plural).stream().filter(RequestLog::isWatch).toList();
    }

    static boolean isWatch(HttpUrl url) {
        return "true".equals(url.queryParameter("watch")) || "1".equals(url.queryParameter("watch"));
    }
}
