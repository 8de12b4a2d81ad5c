package dev.watchkeeper.internal.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import dev.watchkeeper.internal.resource.ResourceType;
import dev.watchkeeper.webhook.AdmissionVerdict;
import dev.watchkeeper.webhook.FailurePolicy;
import dev.watchkeeper.webhook.Operation;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.KeyStore;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The webhook server over real TLS on loopback, as a client that trusts only the webhook CA sees it. */
class WebhookServerTest {

    final ExecutorService threads = Executors.newCachedThreadPool();
    CertificateAuthority authority;
    ServingKeyManager keys;
    WebhookServer server;
    SSLContext tls;
    HttpClient client;

    @BeforeEach
    void start() throws Exception {
        authority = CertificateAuthority.create("test-ca", Instant.now());
        keys = new ServingKeyManager(authority.issue(List.of("localhost"), List.of("127.0.0.1"), Instant.now()));
        WebhookDefinition definition = new WebhookDefinition("check.example.com", WebhookKind.VALIDATING,
                ResourceType.of(V1ConfigMap.class), List.of(Operation.CREATE), FailurePolicy.FAIL, 10, Map.of());
        AdmissionHandler handler = new AdmissionHandler(definition,
                (object, old, context) -> AdmissionVerdict.deny("no"), new JSON().getGson(), threads);
        server = WebhookServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                Map.of(definition.path(), WebhookServer.admission(handler), WebhookClientConfig.CONVERSION_PATH,
                        new ConversionHandler(List.of(), new JSON().getGson(), threads)::handle), keys, threads);
        KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
        trusted.load(null, null);
        trusted.setCertificateEntry("ca", authority.certificate());
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(trusted);
        tls = SSLContext.getInstance("TLS");
        tls.init(null, trust.getTrustManagers(), null);
        client = HttpClient.newBuilder().sslContext(tls).build();
    }

    @AfterEach
    void stop() {
        server.close();
        threads.shutdownNow();
    }

    @Test
    void anAdmissionReviewIsAnswered_anythingElseRefusedWithItsReason() throws Exception {
        HttpResponse<String> answered = post("/validate/check.example.com",
                "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{\"uid\":\"u\","
                        + "\"operation\":\"CREATE\",\"object\":{\"metadata\":{\"name\":\"a\"}}}}");
        assertThat(answered.statusCode()).isEqualTo(200);
        assertThat(answered.body()).contains("\"uid\":\"u\"", "\"allowed\":false", "\"message\":\"no\"");

        assertThat(post("/validate/other.example.com", "{}").statusCode()).isEqualTo(404);
        HttpResponse<String> notReview = post("/validate/check.example.com", "{\"kind\":\"Pod\"}");
        assertThat(notReview.statusCode()).isEqualTo(400);
        assertThat(notReview.body())
                .isEqualTo("expected an AdmissionReview of admission.k8s.io/v1, got kind 'Pod' of ''");
        assertThat(client.send(HttpRequest.newBuilder(uri("/validate/check.example.com")).GET().build(),
                HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(405);
    }

    @Test
    void aConversionReviewIsAnsweredOnItsOwnPath_anAdmissionReviewThereIsNot() throws Exception {
        HttpResponse<String> answered = post("/convert", "{\"apiVersion\":\"apiextensions.k8s.io/v1\","
                + "\"kind\":\"ConversionReview\",\"request\":{\"uid\":\"c\",\"desiredAPIVersion\":\"a.b/v2\","
                + "\"objects\":[]}}");
        assertThat(answered.statusCode()).isEqualTo(200);
        assertThat(answered.body()).contains("\"uid\":\"c\"", "\"status\":\"Success\"");

        HttpResponse<String> admission = post("/convert", "{\"apiVersion\":\"admission.k8s.io/v1\","
                + "\"kind\":\"AdmissionReview\"}");
        assertThat(admission.statusCode()).isEqualTo(400);
        assertThat(admission.body()).isEqualTo("expected a ConversionReview of apiextensions.k8s.io/v1, got kind"
                + " 'AdmissionReview' of 'admission.k8s.io/v1'");
    }

    @Test
    void aNewCertificateIsServedFromTheNextConnection() throws Exception {
        ServingCertificate renewed = authority.issue(List.of("localhost"), List.of("127.0.0.1"), Instant.now());
        keys.serve(renewed);

        // a fresh client: the first one's TLS session would resume without a new certificate
        HttpClient fresh = HttpClient.newBuilder().sslContext(client.sslContext()).build();
        HttpResponse<String> response = fresh.send(HttpRequest.newBuilder(uri("/validate/check.example.com"))
                .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.sslSession().orElseThrow().getPeerCertificates()[0])
                .isEqualTo(renewed.chain().get(0));
    }

    /**
     * A client whose body is late and goes out with its next request, after the answer to the first. The server may
     * answer before the body arrives or wait for it; either way the next request is answered.
     */
    @Test
    void aRequestThatArrivesTogetherWithTheBodyBeforeItIsAnswered() throws Exception {
        try (HandDrivenTls raw = new HandDrivenTls(tls, server.port())) {
            raw.send(headers("/validate/other.example.com", 2));
            String next = request("/validate/check.example.com", "{\"kind\":\"Pod\"}");
            String early = raw.response(Duration.ofSeconds(1));
            if (early == null) {
                raw.send("{}");
                assertThat(raw.response(Duration.ofSeconds(10))).startsWith("HTTP/1.1 404");
                raw.send(next);
            } else {
                assertThat(early).startsWith("HTTP/1.1 404");
                raw.send("{}", next);
            }
            assertThat(raw.response(Duration.ofSeconds(10))).as("the request sent with the body before it")
                    .startsWith("HTTP/1.1 400");
        }
    }

    private static String request(String path, String body) {
        return headers(path, body.getBytes(StandardCharsets.UTF_8).length) + body;
    }

    private static String headers(String path, int contentLength) {
        return "POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: "
                + contentLength + "\r\n\r\n";
    }

    private HttpResponse<String> post(String path, String body) throws Exception {
        return client.send(HttpRequest.newBuilder(uri(path)).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private URI uri(String path) {
        return URI.create("https://127.0.0.1:" + server.port() + path);
    }
}
