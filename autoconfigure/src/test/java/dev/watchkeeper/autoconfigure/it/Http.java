package dev.watchkeeper.autoconfigure.it;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.google.gson.JsonElement;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Base64;

/** Real HTTP calls to the application under test. */
final class Http {

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final int port;
    private final String authorization;

    Http(int port) {
        this(port, null);
    }

    private Http(int port, String authorization) {
        this.port = port;
        this.authorization = authorization;
    }

    /** The same calls, made as {@code user} with HTTP Basic authentication. */
    Http as(String user, String password) {
        String credentials = user + ":" + password;
        return new Http(port, "Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(UTF_8)));
    }

    Response get(String path) {
        return send(request(path).GET().build());
    }

    Response post(String path) {
        return send(request(path).POST(HttpRequest.BodyPublishers.noBody()).build());
    }

    private HttpRequest.Builder request(String path) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri(path));
        return authorization == null ? request : request.header("Authorization", authorization);
    }

    private URI uri(String path) {
        return URI.create("http://localhost:" + port + path);
    }

    private Response send(HttpRequest request) {
        try {
            HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
            return new Response(response.statusCode(), response.body());
        } catch (IOException e) {
            throw new IllegalStateException("cannot reach " + request.uri(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    record Response(int status, String body) {
        JsonElement json() {
            return JsonParser.parseString(body);
        }
    }
}
