package dev.watchkeeper.internal.webhook;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTPS server the API server calls: the JDK's {@link HttpsServer} on a port of its own, so the application's
 * web server (actuator, its own endpoints) is never exposed to the API server. It answers {@code POST} of an
 * AdmissionReview on each webhook's path and of a ConversionReview on {@link WebhookClientConfig#CONVERSION_PATH};
 * anything else is 404 or 405, and a body that is no such review 400, with a one-line reason.
 */
public final class WebhookServer implements AutoCloseable {

    /**
     * Far above what the API server sends for admission (an object and its old version, each at most about 1.5 MiB);
     * a ConversionReview of a long list read at a version not stored can exceed it (docs/crds.md).
     */
    private static final int MAX_BODY = 8 * 1024 * 1024;
    private static final Logger log = LoggerFactory.getLogger(WebhookServer.class);

    private final HttpsServer server;
    private final Map<String, Endpoint> endpoints;

    private WebhookServer(HttpsServer server, Map<String, Endpoint> endpoints) {
        this.server = server;
        this.endpoints = Map.copyOf(endpoints);
    }

    /** What answers the reviews posted to one path. */
    @FunctionalInterface
    interface Endpoint {

        /**
         * The review to answer with.
         *
         * @throws IllegalArgumentException when the body is not the review the path takes (answered 400 with the
         *                                  message)
         */
        String answer(String body) throws InterruptedException;
    }

    /** The endpoint of an admission webhook. */
    static Endpoint admission(AdmissionHandler handler) {
        return body -> handler.handle(AdmissionRequest.parse(body)).toJson();
    }

    /**
     * Binds {@code address} and starts serving with whatever {@code keys} holds at each handshake.
     *
     * @param threads runs each exchange (the method calls have their own executor, in the handlers)
     */
    static WebhookServer start(InetSocketAddress address, Map<String, Endpoint> endpoints, ServingKeyManager keys,
            ExecutorService threads) throws IOException {
        SSLContext tls;
        try {
            tls = SSLContext.getInstance("TLS");
            tls.init(new KeyManager[] {keys}, null, null);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot set up TLS for the webhook server: " + e.getMessage(), e);
        }
        HttpsServer server = HttpsServer.create(address, 0);
        server.setHttpsConfigurator(new HttpsConfigurator(tls));
        server.setExecutor(threads);
        WebhookServer webhooks = new WebhookServer(server, endpoints);
        server.createContext("/", webhooks::exchange);
        server.start();
        return webhooks;
    }

    /** The port it listens on (the one asked for, or the one chosen for port 0). */
    public int port() {
        return server.getAddress().getPort();
    }

    @Override
    public void close() {
        server.stop(0);
    }

    /**
     * Answers one request, always after reading its body: the JDK's server reads a body left unread after the answer
     * on its own, and over TLS that read can take the client's next request off the socket with it and leave it
     * undecrypted, unanswered, until the idle connection is closed (the client sees a connection closed with no
     * answer).
     */
    private void exchange(HttpExchange exchange) throws IOException {
        try {
            byte[] body = read(exchange.getRequestBody());
            Endpoint endpoint = endpoints.get(exchange.getRequestURI().getPath());
            if (endpoint == null) {
                reply(exchange, 404, "text/plain", "no webhook at " + exchange.getRequestURI().getPath());
                return;
            }
            if (!"POST".equals(exchange.getRequestMethod())) {
                reply(exchange, 405, "text/plain", "a webhook takes POST of a review");
                return;
            }
            if (body == null) {
                reply(exchange, 413, "text/plain", "the body is larger than " + MAX_BODY + " bytes");
                return;
            }
            String answer;
            try {
                answer = endpoint.answer(new String(body, StandardCharsets.UTF_8));
            } catch (IllegalArgumentException e) {
                reply(exchange, 400, "text/plain", e.getMessage());
                return;
            }
            reply(exchange, 200, "application/json", answer);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the server stops; the API server sees the connection close
        } catch (RuntimeException e) {
            log.error("webhook server failed on {} {}", exchange.getRequestMethod(), exchange.getRequestURI(), e);
            throw e;
        } finally {
            exchange.close();
        }
    }

    /** The body, or {@code null} when it is longer than {@link #MAX_BODY}. */
    private static byte[] read(InputStream in) throws IOException {
        byte[] body = in.readNBytes(MAX_BODY + 1);
        return body.length > MAX_BODY ? null : body;
    }

    private static void reply(HttpExchange exchange, int status, String contentType, String text) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", contentType + "; charset=utf-8");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }
}
