package dev.watchkeeper.internal.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.watchkeeper.internal.api.StubApiServer;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The Secret that keeps the webhooks' certificates is read as the watchers read objects: the answer of an API server
 * newer than the client, with a metadata field the client's model does not know, is no failure after the server has
 * stored the Secret.
 */
@Timeout(10)
class SecretCertificatesAnswersTest {

    /** No Secret yet (404); a created one is answered as sent, with a field of a newer server in its metadata. */
    private final StubApiServer server = new StubApiServer(request -> {
        if (!"POST".equals(request.method())) {
            return new StubApiServer.Answer(404, "{\"kind\":\"Status\",\"code\":404}");
        }
        JsonObject secret = JsonParser.parseString(request.body()).getAsJsonObject();
        secret.getAsJsonObject("metadata").addProperty("resourceVersion", "1");
        secret.getAsJsonObject("metadata").addProperty("fieldOfANewerServer", "x");
        return new StubApiServer.Answer(201, secret.toString());
    });

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void aCreatedSecretAnsweredWithAFieldTheModelDoesNotKnowServesItsCertificate() throws Exception {
        SecretCertificates certificates = new SecretCertificates(server.client(), "ns", "webhooks",
                List.of("webhooks.ns.svc"), List.of(), Clock.fixed(Instant.parse("2026-12-04T12:00:00Z"),
                        ZoneOffset.UTC));

        ServingCertificate serving = certificates.current();

        assertThat(serving.notAfter()).isAfter(Instant.parse("2026-12-04T12:00:00Z"));
        assertThat(server.requests()).extracting(request -> request.method() + " " + request.uri())
                .containsExactly("GET /api/v1/namespaces/ns/secrets/webhooks", "POST /api/v1/namespaces/ns/secrets");
    }
}
