package dev.watchkeeper.internal.api;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.kubernetes.client.openapi.ApiClient;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * An HTTP server on a loopback port that answers every request with what the test's function says, as JSON, and
 * keeps the requests in order: for answers neither of the real servers sends, such as those of an API server newer
 * than the client.
 */
public final class StubApiServer implements AutoCloseable {

    /** A request as received. */
    public record Request(String method, String uri, String contentType, String authorization, String body) {
    }

    /** The status, JSON body and extra headers to answer with. */
    public record Answer(int status, String body, Map<String, String> headers) {

        /** An answer without extra headers. */
        public Answer(int status, String body) {
            this(status, body, Map.of());
        }
    }

    private final List<Request> requests = new CopyOnWriteArrayList<>();
    private final Function<Request, Answer> answers;
    private final HttpServer server;

    public StubApiServer(Function<Request, Answer> answers) {
        this.answers = answers;
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/", this::answer);
        server.start();
    }

    private void answer(HttpExchange exchange) throws IOException {
        Request request = new Request(exchange.getRequestMethod(), exchange.getRequestURI().toString(),
                exchange.getRequestHeaders().getFirst("Content-Type"),
                exchange.getRequestHeaders().getFirst("Authorization"),
                new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
        requests.add(request);
        Answer answer = answers.apply(request);
        byte[] body = answer.body().getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        answer.headers().forEach(exchange.getResponseHeaders()::set);
        exchange.sendResponseHeaders(answer.status(), body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    /** A client of this server, without credentials. */
    public ApiClient client() {
        return new ApiClient().setBasePath("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** The requests so far, in the order they arrived. */
    public List<Request> requests() {
        return List.copyOf(requests);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
