package dev.watchkeeper.internal.reconcile;

import com.google.gson.JsonElement;
import com.google.gson.JsonParser;
import dev.watchkeeper.internal.watch.http.Redaction;
import io.kubernetes.client.openapi.ApiException;

/**
 * A reconcile's failure as one line a user can act on, for the endpoint's {@code failingKeys[].lastError} and the
 * log. A failed API call reads as the server put it: {@code HTTP 409 Conflict: Operation cannot be fulfilled on …},
 * never with client-java's response headers and body dump; the server's words pass through {@link Redaction}. Any
 * other exception is its type and message.
 */
final class ReconcileErrors {

    private ReconcileErrors() {
    }

    /** {@code thrown} in one line; a failed API call (thrown or a cause of it) as the server answered. */
    static String describe(Throwable thrown) {
        for (Throwable cause = thrown; cause != null; cause = cause.getCause()) {
            if (cause instanceof ApiException api) {
                return describe(api);
            }
        }
        return thrown.getMessage() == null ? thrown.getClass().getName()
                : thrown.getClass().getName() + ": " + thrown.getMessage();
    }

    private static String describe(ApiException e) {
        if (e.getCode() == 0) { // no answer: the connection failed or the call was cut short
            Throwable cause = e.getCause();
            String reason = cause == null ? e.getMessage() : cause.getClass().getSimpleName()
                    + (cause.getMessage() == null ? "" : ": " + cause.getMessage());
            return "no answer from the API server: " + Redaction.of(reason);
        }
        String status = statusField(e.getResponseBody(), "message");
        String reason = statusField(e.getResponseBody(), "reason");
        return "HTTP " + e.getCode() + (reason == null ? "" : " " + reason)
                + (status == null ? "" : ": " + Redaction.of(status));
    }

    /** A field of the Status the server answered with, or {@code null} when the body is none. */
    private static String statusField(String body, String field) {
        if (body == null || body.isBlank()) {
            return null;
        }
        try {
            JsonElement status = JsonParser.parseString(body);
            JsonElement value = status.isJsonObject() ? status.getAsJsonObject().get(field) : null;
            return value == null || !value.isJsonPrimitive() || value.getAsString().isBlank() ? null
                    : value.getAsString();
        } catch (RuntimeException notJson) {
            return null;
        }
    }
}
