package dev.watchkeeper.internal.reconcile;

import static dev.watchkeeper.reconcile.TestObjects.configMap;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.watchkeeper.internal.api.FailedCall;
import dev.watchkeeper.reconcile.ManualTime;
import dev.watchkeeper.resource.ResourceType;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The answers to a reconciler's writes from an API server newer than the client, whose objects carry fields the
 * client's models do not know: they are read as the watchers' caches read objects, the unknown fields skipped (a
 * dynamic object keeps them), never an error after a write the server has made. An answer that is not the object
 * is an error that says so.
 */
@Timeout(10)
class ObjectWritesAnswersTest {

    /** A ConfigMap as a newer server might send it, with a field unknown to the model at the top and in metadata. */
    private static final String NEWER = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\","
            + "\"namespace\":\"default\",\"resourceVersion\":\"7\",\"uid\":\"u-a\",\"fieldOfANewerServer\":\"x\"},"
            + "\"data\":{\"k\":\"v\"},\"fieldOfANewerServer\":{\"n\":1}}";

    private final List<String> requests = new CopyOnWriteArrayList<>();
    private volatile String answer = NEWER;
    private final HttpServer server = start();

    private HttpServer start() {
        try {
            HttpServer http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            http.createContext("/", exchange -> {
                exchange.getRequestBody().readAllBytes();
                requests.add(exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath());
                byte[] body = answer.getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().set("Content-Type", "application/json");
                exchange.sendResponseHeaders(200, body.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            });
            http.start();
            return http;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    @Test
    void fieldsTheModelDoesNotKnowAreSkippedInTheAnswerOfEveryWrite() throws Exception {
        ObjectWrites writes = writes();

        V1ConfigMap applied = writes.apply(configMap("a", "6"));
        V1ConfigMap finalized = writes.addFinalizer(configMap("a", "6"), "test.watchkeeper.dev/cleanup");
        V1ConfigMap read = writes.read(configMap("a", "6"));

        for (V1ConfigMap answered : List.of(applied, finalized, read)) {
            assertThat(answered.getMetadata().getResourceVersion()).isEqualTo("7");
            assertThat(answered.getMetadata().getUid()).isEqualTo("u-a");
            assertThat(answered.getData()).containsEntry("k", "v");
        }
        assertThat(requests).containsExactly("PATCH /api/v1/namespaces/default/configmaps/a",
                "PATCH /api/v1/namespaces/default/configmaps/a", "GET /api/v1/namespaces/default/configmaps/a");
    }

    @Test
    void anAnswerThatIsNotTheObjectIsAnErrorThatSaysSo() {
        answer = "[\"not\", \"an\", \"object\"]";

        assertThatThrownBy(() -> writes().apply(configMap("a", "6")))
                .isInstanceOfSatisfying(FailedCall.class, failed -> assertThat(failed.verb()).isEqualTo("patch"))
                .hasMessageContaining("the API server's answer is not a V1ConfigMap: an object that is not a JSON "
                        + "object");
    }

    @Test
    void aDynamicObjectIsReadFromItsAnswerTheSameWayAndKeepsEveryField() throws Exception {
        ObjectWrites writes = writes(ResourceType.dynamic("", "v1", "configmaps", true));

        DynamicKubernetesObject applied = writes.apply(dynamicConfigMap());

        assertThat(applied.getMetadata().getResourceVersion()).isEqualTo("7");
        assertThat(applied.getRaw().getAsJsonObject("fieldOfANewerServer").get("n").getAsInt()).isEqualTo(1);
        answer = "[\"not\", \"an\", \"object\"]";
        assertThatThrownBy(() -> writes.apply(dynamicConfigMap()))
                .isInstanceOfSatisfying(FailedCall.class, failed -> assertThat(failed.verb()).isEqualTo("patch"))
                .hasMessageContaining("the API server's answer is not a DynamicKubernetesObject: an object that is "
                        + "not a JSON object");
    }

    private static DynamicKubernetesObject dynamicConfigMap() {
        DynamicKubernetesObject object = new DynamicKubernetesObject();
        object.setApiVersion("v1");
        object.setKind("ConfigMap");
        object.setMetadata(new V1ObjectMeta().name("a").namespace("default").resourceVersion("6"));
        return object;
    }

    private ObjectWrites writes() {
        return writes(ResourceType.of(V1ConfigMap.class));
    }

    private ObjectWrites writes(ResourceType<?> primary) {
        ApiClient client = new ApiClient().setBasePath("http://127.0.0.1:" + server.getAddress().getPort());
        return new ObjectWrites(client, "test", primary, new ManualTime(), new OwnWrites(), null, WriteBudget.none());
    }
}
