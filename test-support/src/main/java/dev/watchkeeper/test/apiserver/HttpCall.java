package dev.watchkeeper.test.apiserver;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.stream.JsonWriter;
import com.sun.net.httpserver.HttpExchange;

import java.io.BufferedOutputStream;
import java.io.BufferedWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** One HTTP exchange with its decoded query parameters and JSON answers. */
final class HttpCall {

    private final HttpExchange exchange;
    private final Map<String, String> query = new LinkedHashMap<>();
    private final String decodedQuery;
    private final Duration bodyPause;

    /** @param bodyPause pause between 1 KB pieces of the response body (a slow body), zero for none */
    HttpCall(HttpExchange exchange, Duration bodyPause) {
        this.exchange = exchange;
        this.bodyPause = bodyPause;
        String raw = exchange.getRequestURI().getRawQuery();
        StringBuilder decoded = new StringBuilder();
        if (raw != null && !raw.isEmpty()) {
            for (String pair : raw.split("&")) {
                int eq = pair.indexOf('=');
                String key = decode(eq < 0 ? pair : pair.substring(0, eq));
                String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
                query.put(key, value);
                decoded.append(decoded.length() == 0 ? "" : "&").append(key).append('=').append(value);
            }
        }
        this.decodedQuery = decoded.toString();
    }

    HttpExchange exchange() {
        return exchange;
    }

    String method() {
        return exchange.getRequestMethod();
    }

    String path() {
        return exchange.getRequestURI().getPath();
    }

    String decodedQuery() {
        return decodedQuery;
    }

    /** A query parameter, {@code null} when absent or empty. */
    String param(String name) {
        String value = query.get(name);
        return value == null || value.isEmpty() ? null : value;
    }

    /** Whether a boolean query parameter is {@code true} or {@code 1}. */
    boolean flag(String name) {
        String value = query.get(name);
        return "true".equals(value) || "1".equals(value);
    }

    /**
     * A non-negative integer query parameter, or {@code 0} when absent.
     *
     * @throws StatusException 400 when not a number
     */
    long longParam(String name) {
        String value = param(name);
        if (value == null) {
            return 0;
        }
        try {
            long parsed = Long.parseLong(value);
            if (parsed >= 0) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            throw Statuses.badRequest("invalid " + name + " \"" + value + "\": not a number");
        }
        throw Statuses.badRequest("invalid " + name + " \"" + value + "\": must not be negative");
    }

    String contentType() {
        String type = exchange.getRequestHeaders().getFirst("Content-Type");
        return type == null ? "" : type;
    }

    String body() throws IOException {
        return new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
    }

    void respond(int code, JsonElement body) throws IOException {
        // Encoded straight to bytes: a page of 500 objects is a megabyte, and going through one String would copy
        // it twice more and append it char by char.
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(8192);
        try (JsonWriter writer = Json.GSON.newJsonWriter(
                new BufferedWriter(new OutputStreamWriter(bytes, StandardCharsets.UTF_8), 65536))) {
            Json.GSON.toJson(body, writer);
        }
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(code, bytes.size());
        try (OutputStream out = responseBody()) {
            bytes.writeTo(out);
        }
    }

    /** Answers with JSON already encoded, in parts (e.g. the items of a list) that are sent one after another. */
    void respond(int code, List<byte[]> json) throws IOException {
        long length = 0;
        for (byte[] part : json) {
            length += part.length;
        }
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(code, length);
        try (OutputStream out = new BufferedOutputStream(responseBody(), 65536)) {
            for (byte[] part : json) {
                out.write(part);
            }
        }
    }

    /** Answers with the Status; a {@code details.retryAfterSeconds} becomes {@code Retry-After}, as the real server does. */
    void respond(StatusException status) throws IOException {
        JsonObject body = status.toStatus();
        JsonElement retryAfter = body.getAsJsonObject("details").get("retryAfterSeconds");
        if (retryAfter != null) {
            exchange.getResponseHeaders().set("Retry-After", retryAfter.getAsString());
        }
        respond(status.code(), body);
    }

    void respondText(int code, String text) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
        exchange.sendResponseHeaders(code, bytes.length);
        try (OutputStream out = responseBody()) {
            out.write(bytes);
        }
    }

    /** The response body to write to, slowed down when slow bodies are injected. */
    OutputStream responseBody() {
        OutputStream body = exchange.getResponseBody();
        return bodyPause.isZero() ? body : new SlowOutputStream(body, bodyPause);
    }

    private static String decode(String value) {
        return URLDecoder.decode(value, StandardCharsets.UTF_8);
    }
}
