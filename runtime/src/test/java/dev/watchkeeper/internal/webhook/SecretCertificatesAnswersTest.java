package dev.watchkeeper.internal.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.sun.net.httpserver.HttpServer;
import io.kubernetes.client.openapi.ApiClient;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
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

    private final List<String> requests = new CopyOnWriteArrayList<>();
    private final HttpServer server = start();

    /** No Secret yet (404); a created one is answered as sent, with a field of a newer server in its metadata. */
    private HttpServer start() {
        try {
            HttpServer http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            http.createContext("/", exchange -> {
                String sent = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
                requests.add(exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath());
                int status = 404;
                String answer = "{\"kind\":\"Status\",\"code\":404}";
                if ("POST".equals(exchange.getRequestMethod())) {
                    JsonObject secret = JsonParser.parseString(sent).getAsJsonObject();
                    JsonObject metadata = secret.getAsJsonObject("metadata");
                    metadata.addProperty("resourceVersion", "1");
                    metadata.addProperty("fieldOfANewerServer", "x");
                    status = 201;
                    answer = secret.toString();
                }
                byte[] body = answer.getBytes(StandardCharsets.UTF_8);
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
    void aCreatedSecretAnsweredWithAFieldTheModelDoesNotKnowServesItsCertificate() throws Exception {
        ApiClient client = new ApiClient().setBasePath("http://127.0.0.1:" + server.getAddress().getPort());
        SecretCertificates certificates = new SecretCertificates(client, "ns", "webhooks", List.of("webhooks.ns.svc"),
                List.of(), Clock.fixed(Instant.parse("2026-12-04T12:00:00Z"), ZoneOffset.UTC));

        ServingCertificate serving = certificates.current();

        assertThat(serving.notAfter()).isAfter(Instant.parse("2026-12-04T12:00:00Z"));
        assertThat(requests).containsExactly("GET /api/v1/namespaces/ns/secrets/webhooks",
                "POST /api/v1/namespaces/ns/secrets");
    }
}
