package dev.watchkeeper.internal.api;

import dev.watchkeeper.internal.backoff.TimeSource;
import dev.watchkeeper.internal.backoff.RetryAfter;
import io.kubernetes.client.openapi.ApiClient;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import okhttp3.Interceptor;
import okhttp3.MediaType;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;

/**
 * The API server's {@code Retry-After}, honoured by every request of an {@link ApiClient} (docs/semantics.md,
 * "Retry-After on every write"): an OkHttp interceptor on the client's HTTP client. An answer 429 or 503 with a
 * {@code Retry-After} of whole seconds (at most {@link RetryAfter#MAX}) holds what the request named until then: the
 * object (its path without a subresource, so a status write holds the object), or for a create the collection. A
 * request to a held object before that time is not sent: this interceptor answers it itself, 429 with the rest of the
 * wait as {@code Retry-After} (rounded up to a second) and a message that says so, so every caller's handling of a
 * 429 applies (a reconcile's key is held, a Lease renewal is retried later). Lists and watches (a {@code GET} of a
 * collection) are neither held nor hold: the watchers wait out a {@code Retry-After} with their own backoff.
 */
public final class ServerWaits implements Interceptor {

    private static final MediaType JSON = MediaType.get("application/json");

    private final Clock clock;
    private final Map<String, Instant> holds = new ConcurrentHashMap<>();
    private final AtomicLong answered = new AtomicLong();
    private final AtomicLong heldBack = new AtomicLong();

    private ServerWaits(Clock clock) {
        this.clock = clock;
    }

    /**
     * The waits of {@code client}: the interceptor already on its HTTP client, else a new one on {@code time}'s clock,
     * added to it. Every component that writes calls this with the client it writes through; the first one's clock
     * counts.
     */
    public static ServerWaits on(ApiClient client, TimeSource time) {
        synchronized (client) {
            for (Interceptor interceptor : client.getHttpClient().interceptors()) {
                if (interceptor instanceof ServerWaits waits) {
                    return waits;
                }
            }
            ServerWaits waits = new ServerWaits(time.clock());
            client.setHttpClient(client.getHttpClient().newBuilder().addInterceptor(waits).build());
            return waits;
        }
    }

    @Override
    public Response intercept(Chain chain) throws IOException {
        Request request = chain.request();
        String held = heldPath(request.method(), request.url().encodedPath());
        if (held == null) {
            return chain.proceed(request);
        }
        Instant until = holds.get(held);
        if (until != null) {
            Instant now = clock.instant();
            if (now.isBefore(until)) {
                heldBack.incrementAndGet();
                return notSent(request, held, until, Duration.between(now, until));
            }
            holds.remove(held, until);
        }
        Response response = chain.proceed(request);
        if (response.code() == 429 || response.code() == 503) {
            Duration wait = RetryAfter.parse(response.header("Retry-After"));
            if (wait != null && !wait.isZero()) {
                answered.incrementAndGet();
                Instant now = clock.instant();
                holds.values().removeIf(end -> !now.isBefore(end)); // objects not asked for again since
                holds.merge(held, now.plus(wait), (a, b) -> a.isAfter(b) ? a : b);
            }
        }
        return response;
    }

    /** Answers the server gave with a {@code Retry-After} that held their object. */
    public long answered() {
        return answered.get();
    }

    /** Requests not sent because their object was held. */
    public long heldBack() {
        return heldBack.get();
    }

    private static Response notSent(Request request, String held, Instant until, Duration rest) {
        long seconds = Math.max(1, (rest.toMillis() + 999) / 1000);
        String message = "not sent: the API server asked for no request to " + held + " before " + until
                + " (Retry-After)";
        String status = "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
                + "\"message\":\"" + message.replace("\\", "\\\\").replace("\"", "\\\"")
                + "\",\"reason\":\"TooManyRequests\",\"code\":429}";
        return new Response.Builder().request(request).protocol(Protocol.HTTP_1_1).code(429)
                .message("Too Many Requests").header("Retry-After", Long.toString(seconds))
                .body(ResponseBody.create(status, JSON)).build();
    }

    /**
     * What a request of {@code method} to {@code path} holds and is held by: the object it names (without a
     * subresource), a create's collection, or {@code null} for a list or watch.
     */
    static String heldPath(String method, String path) {
        String[] segments = path.split("/");
        // "", "api", "v1", ... or "", "apis", group, version, ...
        int start = segments.length > 1 && "api".equals(segments[1]) ? 3
                : segments.length > 1 && "apis".equals(segments[1]) ? 4 : -1;
        if (start < 0 || segments.length < start) {
            return "GET".equals(method) ? null : path;
        }
        int rest = segments.length - start;
        int object; // how many segments after the group version name the object
        if (rest >= 1 && "namespaces".equals(segments[start])) {
            if (rest >= 4) {
                object = 4; // namespaces/ns/plural/name[/subresource]
            } else if (rest == 3 && !"status".equals(segments[start + 2]) && !"finalize".equals(segments[start + 2])) {
                object = 0; // namespaces/ns/plural: a collection
            } else {
                object = rest >= 2 ? 2 : 0; // namespaces/name[/status|finalize], or the namespaces
            }
        } else {
            object = rest >= 2 ? 2 : 0; // plural/name[/subresource], or a cluster-scoped collection
        }
        if (object == 0) {
            return "GET".equals(method) ? null : path;
        }
        return String.join("/", Arrays.copyOf(segments, start + object));
    }
}
