package dev.watchkeeper.test.apiserver;

import com.google.gson.JsonObject;

/**
 * A request failure carrying the Kubernetes {@code Status} body to answer with.
 *
 * <p>Thrown by {@link InMemoryApiServer}'s Java API too, e.g.
 * {@code catch (StatusException e) { assert e.code() == 409; }}.
 */
final class StatusException extends RuntimeException {

    private final Reason reason;
    private final transient JsonObject details;

    StatusException(Reason reason, String message, JsonObject details) {
        super(message);
        this.reason = reason;
        this.details = details == null ? new JsonObject() : details;
    }

    StatusException(Reason reason, String message) {
        this(reason, message, null);
    }

    /** The Kubernetes reason, e.g. {@link Reason#CONFLICT}. */
    public Reason reason() {
        return reason;
    }

    /** The HTTP code, e.g. {@code 409}. */
    public int code() {
        return reason.code();
    }

    /** The {@code Status} object as a server sends it. */
    public JsonObject toStatus() {
        JsonObject status = new JsonObject();
        status.addProperty("kind", "Status");
        status.addProperty("apiVersion", "v1");
        status.add("metadata", new JsonObject());
        status.addProperty("status", "Failure");
        status.addProperty("message", getMessage());
        if (!reason.wireName().isEmpty()) {
            status.addProperty("reason", reason.wireName());
        }
        status.add("details", details.deepCopy());
        status.addProperty("code", reason.code());
        return status;
    }

    /** The {@code reason} values of a Kubernetes {@code Status} this server produces, with their HTTP codes. */
    public enum Reason {
        BAD_REQUEST("BadRequest", 400),
        FORBIDDEN("Forbidden", 403),
        NOT_FOUND("NotFound", 404),
        METHOD_NOT_ALLOWED("MethodNotAllowed", 405),
        ALREADY_EXISTS("AlreadyExists", 409),
        CONFLICT("Conflict", 409),
        GONE("Gone", 410),
        EXPIRED("Expired", 410),
        UNSUPPORTED_MEDIA_TYPE("UnsupportedMediaType", 415),
        INVALID("Invalid", 422),
        TOO_MANY_REQUESTS("TooManyRequests", 429),
        INTERNAL_ERROR("InternalError", 500),
        /** No reason: the server failed with a plain error, which it answers 500 without one. */
        UNKNOWN("", 500),
        SERVICE_UNAVAILABLE("ServiceUnavailable", 503),
        TIMEOUT("Timeout", 504);

        private final String wireName;
        private final int code;

        Reason(String wireName, int code) {
            this.wireName = wireName;
            this.code = code;
        }

        /** The value of {@code Status.reason}, e.g. {@code NotFound}; empty for {@link #UNKNOWN}, sent as no reason. */
        public String wireName() {
            return wireName;
        }

        /** The HTTP status code. */
        public int code() {
            return code;
        }
    }
}
