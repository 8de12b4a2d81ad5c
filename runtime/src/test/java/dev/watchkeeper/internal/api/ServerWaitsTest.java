package dev.watchkeeper.internal.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.watchkeeper.reconcile.ManualTime;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import okhttp3.Call;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An answer 429 or 503 with {@code Retry-After} holds its object: no request to it leaves the client before the
 * time the server named (on the injected clock), whatever sends it; the client answers such a request itself, 429
 * with the rest of the wait. Other objects, lists and watches go on.
 */
@Timeout(10)
class ServerWaitsTest {

    private static final String THING = "/apis/test.watchkeeper.dev/v1/namespaces/default/things/a";
    private static final String OK = "{\"kind\":\"Thing\",\"metadata\":{\"name\":\"a\"}}";

    private final ManualTime time = new ManualTime();
    private final AtomicReference<StubApiServer.Answer> next = new AtomicReference<>();
    private final StubApiServer server = new StubApiServer(request -> {
        StubApiServer.Answer answer = next.getAndSet(null);
        return answer != null ? answer : new StubApiServer.Answer(200, OK);
    });
    private final ApiClient client = server.client();
    private final ServerWaits waits = ServerWaits.on(client, time);

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void aStatusWriteAnswered429HoldsTheObjectUntilTheNamedTime() throws Exception {
        next.set(throttled(429, "2"));
        assertThat(send("PUT", THING + "/status")).isEqualTo(429);

        time.advance(Duration.ofMillis(1_500));
        ApiException again = failure("PUT", THING + "/status");
        ApiException patch = failure("PATCH", THING);
        ApiException read = failure("GET", THING);

        assertThat(server.requests()).as("none of the three was sent").hasSize(1);
        assertThat(List.of(again, patch, read)).allSatisfy(held -> {
            assertThat(held.getCode()).isEqualTo(429);
            assertThat(held.getResponseHeaders().get("Retry-After")).containsExactly("1");
            assertThat(held.getResponseBody()).contains("not sent: the API server asked for no request to " + THING);
        });
        assertThat(waits.answered()).isEqualTo(1);
        assertThat(waits.heldBack()).isEqualTo(3);

        time.advance(Duration.ofMillis(500));
        assertThat(send("PUT", THING + "/status")).isEqualTo(200);
        assertThat(server.requests()).hasSize(2);
    }

    @Test
    void a503WithRetryAfterHoldsToo() throws Exception {
        next.set(throttled(503, "1"));
        send("PATCH", THING);

        assertThat(failure("PATCH", THING).getCode()).isEqualTo(429);
        time.advance(Duration.ofSeconds(1));
        assertThat(send("PATCH", THING)).isEqualTo(200);
        assertThat(server.requests()).hasSize(2);
    }

    @Test
    void otherObjectsListsAndWatchesAreNotHeld() throws Exception {
        next.set(throttled(429, "5"));
        send("PUT", THING);

        assertThat(send("PUT", THING.replace("things/a", "things/b"))).isEqualTo(200);
        assertThat(send("GET", "/apis/test.watchkeeper.dev/v1/namespaces/default/things")).isEqualTo(200);
        assertThat(send("GET", "/apis/test.watchkeeper.dev/v1/namespaces/default/things?watch=true")).isEqualTo(200);
        assertThat(server.requests()).hasSize(4);
    }

    @Test
    void anAnswerWithoutAWholeNumberOfSecondsHoldsNothing() throws Exception {
        next.set(new StubApiServer.Answer(429, "{}", Map.of("Retry-After", "Fri, 31 Dec 1999 23:59:59 GMT")));
        send("PUT", THING);
        next.set(new StubApiServer.Answer(429, "{}"));
        send("PUT", THING);
        next.set(throttled(500, "3"));
        send("PUT", THING);

        assertThat(send("PUT", THING)).isEqualTo(200);
        assertThat(server.requests()).hasSize(4);
        assertThat(waits.answered()).isZero();
    }

    @Test
    void oneInterceptorPerClientWhoeverAsks() {
        assertThat(ServerWaits.on(client, new ManualTime())).isSameAs(waits);
        assertThat(client.getHttpClient().interceptors()).filteredOn(ServerWaits.class::isInstance).hasSize(1);
    }

    @Test
    void whatARequestHolds() {
        assertThat(ServerWaits.heldPath("PUT", THING + "/status")).isEqualTo(THING);
        assertThat(ServerWaits.heldPath("GET", "/api/v1/namespaces/default/configmaps/a")).isEqualTo(
                "/api/v1/namespaces/default/configmaps/a");
        assertThat(ServerWaits.heldPath("PUT", "/api/v1/namespaces/default/status"))
                .as("a namespace's own status").isEqualTo("/api/v1/namespaces/default");
        assertThat(ServerWaits.heldPath("PUT", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/x/status"))
                .isEqualTo("/apis/apiextensions.k8s.io/v1/customresourcedefinitions/x");
        assertThat(ServerWaits.heldPath("POST", "/apis/events.k8s.io/v1/namespaces/default/events"))
                .as("a create holds its collection").isEqualTo("/apis/events.k8s.io/v1/namespaces/default/events");
        assertThat(ServerWaits.heldPath("GET", "/api/v1/namespaces/default/configmaps")).as("a list").isNull();
        assertThat(ServerWaits.heldPath("GET", "/apis/test.watchkeeper.dev/v1")).as("discovery").isNull();
    }

    private static StubApiServer.Answer throttled(int code, String retryAfter) {
        return new StubApiServer.Answer(code, "{\"kind\":\"Status\",\"code\":" + code + "}",
                Map.of("Retry-After", retryAfter));
    }

    private int send(String method, String pathAndQuery) throws Exception {
        try {
            Calls.body(call(method, pathAndQuery));
            return 200;
        } catch (ApiException e) {
            return e.getCode();
        }
    }

    private ApiException failure(String method, String path) throws Exception {
        try {
            Calls.body(call(method, path));
        } catch (ApiException e) {
            return e;
        }
        throw new AssertionError(method + " " + path + " succeeded");
    }

    private Call call(String method, String pathAndQuery) throws ApiException {
        int query = pathAndQuery.indexOf('?');
        String path = query < 0 ? pathAndQuery : pathAndQuery.substring(0, query);
        List<io.kubernetes.client.openapi.Pair> pairs = query < 0 ? List.of()
                : List.of(new io.kubernetes.client.openapi.Pair("watch", "true"));
        Map<String, String> headers = new HashMap<>();
        headers.put("Accept", "application/json");
        headers.put("Content-Type", "application/json");
        return client.buildCall(null, path, method, pairs, List.of(), "GET".equals(method) ? null : "{}", headers,
                new HashMap<>(), new HashMap<>(), new String[] {"BearerToken"}, null);
    }
}
