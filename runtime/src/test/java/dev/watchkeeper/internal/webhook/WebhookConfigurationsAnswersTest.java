package dev.watchkeeper.internal.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.watchkeeper.internal.api.StubApiServer;
import dev.watchkeeper.internal.resource.ResourceType;
import dev.watchkeeper.webhook.FailurePolicy;
import dev.watchkeeper.webhook.Operation;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import java.util.List;
import java.util.Map;
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

    private volatile int status = 200;
    private final StubApiServer server = new StubApiServer(request -> new StubApiServer.Answer(status,
            status == 200 ? NEWER : "{\"kind\":\"Status\",\"code\":" + status + "}"));

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void anAnswerWithFieldsTheModelDoesNotKnowIsNoFailure() throws Exception {
        List<String> applied = configurations().apply(client(), List.of(webhook()), new byte[] {1});

        assertThat(applied).containsExactly("VALIDATING check.example.com");
        assertThat(server.requests()).singleElement().satisfies(request -> {
            assertThat(request.method() + " " + request.uri()).isEqualTo("PATCH /apis/admissionregistration.k8s.io/"
                    + "v1/validatingwebhookconfigurations/app?fieldManager=app&force=true");
            assertThat(request.contentType()).isEqualTo("application/apply-patch+yaml; charset=utf-8");
            assertThat(request.authorization()).isEqualTo("Bearer t0ken");
        });
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

    /** With the credentials a real client adds to the request's headers. */
    private ApiClient client() {
        ApiClient client = server.client();
        client.setApiKeyPrefix("Bearer");
        client.setApiKey("t0ken");
        return client;
    }
}
