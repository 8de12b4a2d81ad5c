package dev.watchkeeper.internal.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import dev.watchkeeper.internal.api.Calls;
import dev.watchkeeper.internal.api.ServerWaits;
import dev.watchkeeper.internal.events.EventRecorder;
import dev.watchkeeper.internal.events.Occurrence;
import dev.watchkeeper.internal.events.Reporter;
import dev.watchkeeper.internal.api.StubApiServer;
import dev.watchkeeper.reconcile.ManualTime;
import dev.watchkeeper.internal.resource.ResourceType;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Property: over random sequences of every write a reconcile makes (server-side apply, the conflict-safe status
 * update and its re-read, the conditions' edit, adding and removing a finalizer, a read, an Event, and a user's own
 * delete through the same client) against a server that answers 429 or 503 with {@code Retry-After} at random, the next
 * request to an object never reaches the server before the time an earlier answer for that object named. The clock
 * is virtual and only the test moves it, so "before" is exact.
 */
class RetryAfterOnEveryWritePathTest {

    private static final String COLLECTION = "/apis/test.watchkeeper.dev/v1/namespaces/default/things/";
    private static final List<String> NAMES = List.of("a", "b", "c");
    private static final String EVENTS_V1 = "/apis/events.k8s.io/v1";

    /** A request as the server saw it, at the virtual time it arrived, and what it was answered. */
    private record Seen(Instant at, String method, String object, int code, Duration retryAfter) {
    }

    private final ManualTime time = new ManualTime();
    private final List<Seen> seen = new CopyOnWriteArrayList<>();
    private final AtomicInteger heldByClient = new AtomicInteger();
    private Random random;
    private StubApiServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4})
    void noRequestToAnObjectComesBeforeTheTimeTheServerNamed(long seed) throws Exception {
        random = new Random(seed * 31);
        Random steps = new Random(seed);
        server = new StubApiServer(this::answer);
        ApiClient client = server.client();
        ServerWaits.on(client, time); // as a reconciler does when it is built
        ObjectWrites writes = new ObjectWrites(client, "test", ResourceType.dynamic("test.watchkeeper.dev", "v1",
                "things", true), time, new OwnWrites(), null, WriteBudget.none());
        EventRecorder events = EventRecorder.create(client, Reporter.defaults(), time); // writes on its own thread
        for (int step = 0; step < 60; step++) {
            String name = NAMES.get(steps.nextInt(NAMES.size()));
            DynamicKubernetesObject object = new DynamicKubernetesObject(thing(name));
            String mark = "step-" + step;
            try {
                switch (steps.nextInt(8)) {
                    case 0 -> writes.apply(object);
                    case 1 -> writes.updateStatus(object,
                            copy -> copy.getRaw().getAsJsonObject("status").addProperty("mark", mark));
                    case 2 -> writes.rewriteStatus(object, json -> StatusConditions.edited(json, object, 1L,
                            time.clock(), conditions -> conditions.set("Ready", false, "ReconcileError", mark),
                            new HashSet<>()));
                    case 3 -> writes.addFinalizer(object, "test.watchkeeper.dev/" + mark);
                    case 4 -> writes.removeFinalizer(object, "test.watchkeeper.dev/cleanup");
                    case 5 -> writes.read(object);
                    case 6 -> events.record(new Occurrence.Regarding("test.watchkeeper.dev/v1", "Thing", "default", name,
                            "u-" + name), "test", "Normal", "Step", "Step", mark);
                    default -> Calls.body(delete(client, name));
                }
            } catch (ApiException e) {
                if (e.getResponseBody() != null && e.getResponseBody().contains("not sent: the API server asked")) {
                    heldByClient.incrementAndGet();
                }
            }
            time.advance(Duration.ofMillis(steps.nextInt(1_500)));
        }
        events.close(); // after its last write

        Map<String, Instant> notBefore = new HashMap<>();
        List<String> early = new ArrayList<>();
        for (Seen request : seen) {
            Instant held = notBefore.get(request.object());
            if (held != null && request.at().isBefore(held)) {
                early.add(request + " before " + held);
            }
            if (request.retryAfter() != null) {
                notBefore.put(request.object(), request.at().plus(request.retryAfter()));
            }
        }
        assertThat(early).as("requests that came inside the server's Retry-After").isEmpty();
        assertThat(seen).as("the server asked for waits").anyMatch(request -> request.retryAfter() != null);
        assertThat(seen).as("Events were written").anyMatch(request -> request.method().equals("POST"));
        assertThat(heldByClient).as("writes the client held back instead of sending").hasPositiveValue();
    }

    /** A user's own delete through the reconciler's client ({@code context.apiClient()}). */
    private static okhttp3.Call delete(ApiClient client, String name) throws ApiException {
        Map<String, String> headers = new HashMap<>();
        headers.put("Accept", "application/json");
        headers.put("Content-Type", "application/json");
        return client.buildCall(null, COLLECTION + name, "DELETE", List.of(), List.of(), null, headers,
                new HashMap<>(), new HashMap<>(), new String[] {"BearerToken"}, null);
    }

    private StubApiServer.Answer answer(StubApiServer.Request request) {
        Clock clock = time.clock();
        String path = request.uri().replaceFirst("\\?.*", "");
        if (path.equals(EVENTS_V1)) { // discovery: no object, so never held; events.k8s.io/v1 is served
            return new StubApiServer.Answer(200, "{\"kind\":\"APIResourceList\",\"groupVersion\":\"events.k8s.io/v1\","
                    + "\"resources\":[{\"name\":\"events\",\"namespaced\":true,\"kind\":\"Event\"}]}");
        }
        // an object's path without its subresource; an Event's create holds its collection
        String object = path.endsWith("/status") ? path.substring(0, path.length() - "/status".length()) : path;
        int roll;
        synchronized (this) {
            roll = random.nextInt(100);
        }
        StubApiServer.Answer answer;
        Duration retryAfter = null;
        if (roll < 20) {
            retryAfter = Duration.ofSeconds(1 + roll % 3);
            answer = new StubApiServer.Answer(429, status(429, "TooManyRequests"),
                    Map.of("Retry-After", Long.toString(retryAfter.toSeconds())));
        } else if (roll < 30) {
            retryAfter = Duration.ofSeconds(1 + roll % 2);
            answer = new StubApiServer.Answer(503, status(503, "ServiceUnavailable"),
                    Map.of("Retry-After", Long.toString(retryAfter.toSeconds())));
        } else if (roll < 40 && "PUT".equals(request.method())) {
            answer = new StubApiServer.Answer(409, status(409, "Conflict"));
        } else {
            answer = new StubApiServer.Answer(200, thing(object.substring(object.lastIndexOf('/') + 1)).toString());
        }
        seen.add(new Seen(clock.instant(), request.method(), object, answer.status(), retryAfter));
        return answer;
    }

    private static String status(int code, String reason) {
        return "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"reason\":\"" + reason
                + "\",\"code\":" + code + "}";
    }

    private static JsonObject thing(String name) {
        DynamicKubernetesObject thing = new DynamicKubernetesObject();
        thing.setApiVersion("test.watchkeeper.dev/v1");
        thing.setKind("Thing");
        thing.setMetadata(new V1ObjectMeta().namespace("default").name(name).resourceVersion("7").uid("u-" + name)
                .generation(1L).finalizers(List.of("test.watchkeeper.dev/cleanup")));
        JsonObject raw = thing.getRaw();
        raw.add("status", new JsonObject());
        return raw;
    }
}
