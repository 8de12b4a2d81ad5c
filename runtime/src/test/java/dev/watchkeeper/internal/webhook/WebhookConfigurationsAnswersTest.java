package dev.watchkeeper.internal.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.watchkeeper.resource.ResourceType;
import dev.watchkeeper.webhook.FailurePolicy;
import dev.watchkeeper.webhook.Operation;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The webhook configurations are applied whatever the API server answers with: a newer server defaults fields
 * client-java's models do not know, and the apply it has made must not fail afterwards in the client's decoding.
 * A refused apply is still the server's error.
 */
@Timeout(10)
class WebhookConfigurationsAnswersTest {

    /** A configuration as a newer server might answer, with a defaulted field unknown to the model. */
    private static final String NEWER = "{\"apiVersion\":\"admissionregistration.k8s.io/v1\","
            + "\"kind\":\"ValidatingWebhookConfiguration\",\"metadata\":{\"name\":\"app\",\"resourceVersion\":\"5\"},"
            + "\"webhooks\":[{\"name\":\"check.example.com\",\"fieldOfANewerServer\":\"Default\"}]}";

    private final List<String> requests = new CopyOnWriteArrayList<>();
    private volatile int status = 200;
    private final HttpServer server = start();

    private HttpServer start() {
        try {
            HttpServer http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            http.createContext("/", exchange -> {
                exchange.getRequestBody().readAllBytes();
                requests.add(exchange.getRequestMethod() + " " + exchange.getRequestURI() + " "
                        + exchange.getRequestHeaders().getFirst("Content-Type") + " "
                        + exchange.getRequestHeaders().getFirst("Authorization"));
                byte[] body = (status == 200 ? NEWER : "{\"kind\":\"Status\",\"code\":403}")
                        .getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().set("Content-Type", "application/json");
                exchange.sendResponseHeaders(status, body.length);
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
    void anAnswerWithFieldsTheModelDoesNotKnowIsNoFailure() throws Exception {
        List<String> applied = configurations().apply(client(), List.of(webhook()), new byte[] {1});

        assertThat(applied).containsExactly("VALIDATING check.example.com");
        assertThat(requests).containsExactly("PATCH /apis/admissionregistration.k8s.io/v1/"
                + "validatingwebhookconfigurations/app?fieldManager=app&force=true"
                + " application/apply-patch+yaml; charset=utf-8 Bearer t0ken");
    }

    @Test
    void aRefusedApplyIsTheServersError() {
        status = 403;

        assertThatThrownBy(() -> configurations().apply(client(), List.of(webhook()), new byte[] {1}))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.getCode()).isEqualTo(403));
    }

    private static WebhookConfigurations configurations() {
        return new WebhookConfigurations("app", new WebhookClientConfig.Url("https://webhooks.example.com:9443"));
    }

    private static WebhookDefinition webhook() {
        return new WebhookDefinition("check.example.com", WebhookKind.VALIDATING, ResourceType.of(V1ConfigMap.class),
                List.of(Operation.CREATE), FailurePolicy.FAIL, 10, Map.of());
    }

    private ApiClient client() {
        ApiClient client = new ApiClient().setBasePath("http://127.0.0.1:" + server.getAddress().getPort());
        client.setApiKeyPrefix("Bearer");
        client.setApiKey("t0ken"); // the credentials a real client adds to the request's headers
        return client;
    }
}
