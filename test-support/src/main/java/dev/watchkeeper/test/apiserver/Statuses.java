package dev.watchkeeper.test.apiserver;

import com.google.gson.JsonObject;

/** Factory of the {@link StatusException}s a real API server answers with, worded like one. */
final class Statuses {

    static final String RESOURCE_NOT_FOUND = "the server could not find the requested resource";

    private Statuses() {
    }

    static StatusException notFound(String plural, String name) {
        return new StatusException(StatusException.Reason.NOT_FOUND,
                plural + " \"" + name + "\" not found", details(plural, name));
    }

    static StatusException resourceNotFound() {
        return new StatusException(StatusException.Reason.NOT_FOUND, RESOURCE_NOT_FOUND);
    }

    static StatusException alreadyExists(String plural, String name) {
        return new StatusException(StatusException.Reason.ALREADY_EXISTS,
                plural + " \"" + name + "\" already exists", details(plural, name));
    }

    static StatusException conflict(String plural, String name) {
        return new StatusException(StatusException.Reason.CONFLICT,
                "Operation cannot be fulfilled on " + plural + " \"" + name
                        + "\": the object has been modified; please apply your changes to the latest version and try again",
                details(plural, name));
    }

    static StatusException badRequest(String message) {
        return new StatusException(StatusException.Reason.BAD_REQUEST, message);
    }

    static StatusException invalid(String plural, String name, String message) {
        return new StatusException(StatusException.Reason.INVALID, message, details(plural, name));
    }

    static StatusException methodNotAllowed(String method) {
        return new StatusException(StatusException.Reason.METHOD_NOT_ALLOWED,
                "the server does not allow this method on the requested resource (" + method + ")");
    }

    static StatusException tooOldResourceVersion(long requested, long oldest) {
        return new StatusException(StatusException.Reason.EXPIRED,
                "too old resource version: " + requested + " (" + oldest + ")");
    }

    static StatusException continueExpired() {
        return new StatusException(StatusException.Reason.EXPIRED,
                "The provided continue parameter is too old to display a consistent list result. You can start a new"
                        + " list without the continue parameter, or use the continue value from the response.");
    }

    static StatusException forbidden(String verb, String group, String plural, String namespace) {
        String scope = namespace == null ? "at the cluster scope" : "in the namespace \"" + namespace + "\"";
        JsonObject details = new JsonObject();
        if (!group.isEmpty()) {
            details.addProperty("group", group);
        }
        details.addProperty("kind", plural);
        String resource = group.isEmpty() ? plural : plural + "." + group;
        return new StatusException(StatusException.Reason.FORBIDDEN,
                resource + " is forbidden: User \"system:serviceaccount:default:app\" cannot " + verb
                        + " resource \"" + plural + "\" in API group \"" + group + "\" " + scope,
                details);
    }

    static StatusException tooManyRequests(long retryAfterSeconds) {
        JsonObject details = new JsonObject();
        details.addProperty("retryAfterSeconds", retryAfterSeconds);
        return new StatusException(StatusException.Reason.TOO_MANY_REQUESTS,
                "Too many requests, please try again later.", details);
    }

    static StatusException serviceUnavailable() {
        return new StatusException(StatusException.Reason.SERVICE_UNAVAILABLE,
                "The server is currently unable to handle the request");
    }

    static StatusException internalError(String message) {
        return new StatusException(StatusException.Reason.INTERNAL_ERROR, message);
    }

    private static JsonObject details(String plural, String name) {
        JsonObject details = new JsonObject();
        details.addProperty("name", name);
        details.addProperty("kind", plural);
        return details;
    }
}
