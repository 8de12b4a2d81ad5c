package dev.watchkeeper.internal.watch.http;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.watchkeeper.internal.backoff.RetryAfter;
import dev.watchkeeper.internal.json.JsonFields;
import dev.watchkeeper.internal.text.Redaction;
import dev.watchkeeper.internal.watch.ApiFailure;
import dev.watchkeeper.internal.watch.WatchScope;
import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.time.Duration;
import okhttp3.HttpUrl;
import okhttp3.Response;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns failed calls into messages a user can act on: what failed, and what to do about it. Never includes
 * request headers (a bearer token) or object contents; the server's own words pass through {@link Redaction}, and a
 * snippet of an unexpected body goes to DEBUG only.
 */
final class ApiFailures {

    private static final Logger log = LoggerFactory.getLogger(ApiFailures.class);
    /** The Status cause type of a list or watch from a resourceVersion the server has not reached yet. */
    private static final String TOO_LARGE_RESOURCE_VERSION = "ResourceVersionTooLarge";

    private ApiFailures() {
    }

    /**
     * @param verb     {@code list} or {@code watch}
     * @param resource e.g. {@code configmaps} or {@code configmapgenerators.samples.watchkeeper.dev}
     * @param custom   whether the resource comes from a CRD (a 404 then most likely means it is not installed)
     */
    static ApiFailure fromResponse(Response response, String body, String verb, String resource, String display,
            WatchScope scope, boolean custom) {
        int code = response.code();
        String serverMessage = statusMessage(body);
        log.debug("{} {} answered {}: {}", verb, display, code, snippet(body));
        String message = switch (code) {
            case 401 -> "unauthorized: check the kubeconfig credentials (HTTP 401 on " + verb + " " + display + ")";
            case 403 -> "forbidden: cannot " + verb + " " + plural(resource) + " in " + scope.describe()
                    + " — grant list and watch" + suffix(serverMessage);
            case 404 -> custom
                    ? "not found: is the CRD " + resource + " installed?"
                    : "not found: the server does not serve " + display + suffix(serverMessage);
            case 410 -> "expired: " + (serverMessage == null ? "resourceVersion too old" : serverMessage);
            case 429 -> "too many requests: the server throttles " + verb + " " + display
                    + retryAfterText(response);
            case 300, 301, 302, 303, 304, 305, 307, 308 -> "redirected to " + location(response) + " (HTTP " + code
                    + " on " + verb + " " + display + "); an API server does not redirect, so it was not followed:"
                    + " check the server URL and any proxy in between";
            default -> (code >= 500 ? "server error " : "HTTP ") + code + " on " + verb + " " + display
                    + suffix(serverMessage);
        };
        return new ApiFailure(code, message, retryAfter(response), null, hasCause(body, TOO_LARGE_RESOURCE_VERSION));
    }

    static ApiFailure fromException(IOException e, HttpUrl url, String verb, String display) {
        String target = url.host() + ":" + url.port();
        String message;
        if (e instanceof ConnectException) {
            message = "connection refused: " + target + " (" + verb + " " + display + ")";
        } else if (e instanceof UnknownHostException) {
            message = "unknown host: " + url.host() + " (" + verb + " " + display + ")";
        } else if (e instanceof SocketTimeoutException || e instanceof InterruptedIOException) {
            message = "timed out talking to " + target + " (" + verb + " " + display + ")";
        } else if (e.getCause() instanceof EOFException) {
            message = "the connection to " + target + " closed before a complete answer to " + verb + " " + display;
        } else {
            message = "cannot reach " + target + " (" + verb + " " + display + "): " + reason(e);
        }
        return new ApiFailure(0, message, null, e);
    }

    /** The server answered but its body could not be read: cut off, or not in the encoding its headers say. */
    static ApiFailure fromUnreadableBody(Response response, IOException e, String verb, String display) {
        Response network = response.networkResponse();
        String encoding = network == null ? null : network.header("Content-Encoding");
        return new ApiFailure(response.code(), "the body of the answer to " + verb + " " + display + " (HTTP "
                + response.code() + (encoding == null ? "" : ", Content-Encoding " + snippet(encoding))
                + ") cannot be read: " + reason(e), null, e);
    }

    /** Text from a server or about its answer, safe to show and log ({@link Redaction}). */
    static String snippet(String text) {
        return Redaction.of(text);
    }

    private static String reason(IOException e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : snippet(e.getMessage());
    }

    /** Where a redirect points, host and port only: its path and query are the proxy's business. */
    private static String location(Response response) {
        String location = response.header("Location");
        HttpUrl target = location == null ? null : response.request().url().resolve(location);
        return target == null ? "nowhere" : target.host() + ":" + target.port();
    }

    private static String plural(String resource) {
        int dot = resource.indexOf('.');
        return dot < 0 ? resource : resource.substring(0, dot);
    }

    private static String suffix(String serverMessage) {
        return serverMessage == null ? "" : " (" + serverMessage + ")";
    }

    private static String statusMessage(String body) {
        try {
            JsonElement status = JsonParser.parseString(body);
            String message = JsonFields.string(status, "message");
            return message == null || message.isBlank() ? null : snippet(message);
        } catch (RuntimeException notJson) {
            return null;
        }
    }

    /** Whether the Status in {@code body} lists a cause of {@code type} (its {@code reason}) in {@code details.causes}. */
    private static boolean hasCause(String body, String type) {
        JsonElement causes;
        try {
            JsonObject details = JsonFields.object(JsonParser.parseString(body), "details");
            causes = details == null ? null : details.get("causes");
        } catch (RuntimeException notJson) {
            return false;
        }
        if (causes == null || !causes.isJsonArray()) {
            return false;
        }
        for (JsonElement cause : causes.getAsJsonArray()) {
            if (type.equals(JsonFields.string(cause, "reason"))) {
                return true;
            }
        }
        return false;
    }

    private static String retryAfterText(Response response) {
        Duration after = retryAfter(response);
        return after == null ? "" : "; retrying after " + after.toSeconds() + "s";
    }

    private static Duration retryAfter(Response response) {
        String header = response.header("Retry-After");
        Duration after = RetryAfter.parse(header);
        if (header != null && after == null) {
            log.debug("ignoring a Retry-After that is not a number of seconds: {}", snippet(header));
        }
        return after;
    }
}
