package dev.watchkeeper.internal.api;

import java.time.Duration;
import dev.watchkeeper.internal.backoff.RetryAfter;
import com.google.gson.JsonElement;
import com.google.gson.JsonParser;
import dev.watchkeeper.internal.text.Redaction;
import io.kubernetes.client.openapi.ApiException;

/**
 * A failure as one line a user can act on, for a reconcile's {@code failingKeys[].lastError} on the endpoint, the log
 * and the Event recorder, at most {@value #LIMIT} characters. A failed API call reads as the server put it, after what was
 * called when known ({@link FailedCall}), and a 403 says what to grant:
 * {@code update configmaps/default/a/status: HTTP 403 Forbidden: … — grant update on configmaps/status}; never with
 * client-java's response headers and body dump; the server's words pass through {@link Redaction}. Any other
 * exception is its type and message.
 */
public final class ApiErrors {

    /** Long enough for the server's message, short enough for a log line and the endpoint. */
    static final int LIMIT = 512;

    private ApiErrors() {
    }

    /** {@code thrown} in one line; a failed API call (thrown or a cause of it) as the server answered. */
    public static String describe(Throwable thrown) {
        ApiException api = apiFailure(thrown);
        if (api != null) {
            return cap(describe(api));
        }
        return cap(thrown.getMessage() == null ? thrown.getClass().getName()
                : thrown.getClass().getName() + ": " + thrown.getMessage());
    }

    /** The failed API call {@code thrown} is or was caused by, else {@code null}. */
    public static ApiException apiFailure(Throwable thrown) {
        for (Throwable cause = thrown; cause != null; cause = cause.getCause()) {
            if (cause instanceof ApiException api) {
                return api;
            }
        }
        return null;
    }

    /** The {@code Retry-After} of the failed API call in {@code thrown}'s cause chain (a write answered 429), or {@code null}. */
    public static Duration retryAfter(Throwable thrown) {
        ApiException api = apiFailure(thrown);
        return api == null ? null : RetryAfter.in(api.getResponseHeaders());
    }

    private static String describe(ApiException e) {
        FailedCall call = e instanceof FailedCall failed ? failed : null;
        String prefix = call == null ? "" : call.call() + ": ";
        if (e.getCode() == 0) { // no answer: the connection failed or the call was cut short
            Throwable cause = e.getCause();
            String reason = cause == null ? e.getMessage() : cause.getClass().getSimpleName()
                    + (cause.getMessage() == null ? "" : ": " + cause.getMessage());
            return prefix + "no answer from the API server: " + Redaction.of(reason);
        }
        String status = statusField(e.getResponseBody(), "message");
        String reason = statusField(e.getResponseBody(), "reason");
        String grant = call != null && e.getCode() == 403 ? " — " + call.grant() : "";
        String head = prefix + "HTTP " + e.getCode() + (reason == null ? "" : " " + reason);
        // the server's message is what gets cut, so the grant always shows
        String message = status == null ? "" : ": " + Redaction.of(status);
        int room = LIMIT - head.length() - grant.length();
        if (message.length() > room) {
            message = room > 1 ? message.substring(0, room - 1) + "…" : "";
        }
        return head + message + grant;
    }

    private static String cap(String line) {
        String one = line.replace('\n', ' ').replace('\r', ' ');
        return one.length() <= LIMIT ? one : one.substring(0, LIMIT - 1) + "…";
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
