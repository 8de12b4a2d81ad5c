package dev.watchkeeper.test.apiserver;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

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

    /** 410 for a list at an exact resourceVersion that compaction removed, as etcd's storage answers it. */
    static StatusException listTooOld() {
        return new StatusException(StatusException.Reason.EXPIRED,
                "The resourceVersion for the provided list is too old.");
    }

    /**
     * 504 for a list from a resourceVersion the server has not reached (the real one waits 3 s for its watch cache
     * first), with the cause {@code ResourceVersionTooLarge} and a retry after 1 s.
     */
    static StatusException tooLargeResourceVersion(long requested, long current) {
        JsonObject details = new JsonObject();
        JsonObject cause = new JsonObject();
        cause.addProperty("reason", "ResourceVersionTooLarge");
        cause.addProperty("message", "Too large resource version");
        details.add("causes", causes(cause));
        details.addProperty("retryAfterSeconds", 1);
        return new StatusException(StatusException.Reason.TIMEOUT,
                "Timeout: Too large resource version: " + requested + ", current: " + current, details);
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

    /** 500 without a reason: kube-apiserver's storage fails such a list or watch with a plain error. */
    static StatusException invalidShardSelector(String problem) {
        return new StatusException(StatusException.Reason.UNKNOWN, "invalid shard selector: " + problem);
    }

    /** 422 for a field a write may not set, e.g. a new finalizer on an object being deleted. */
    static StatusException fieldForbidden(ApiResource resource, String name, String field, String detail) {
        String kind = resource.group().isEmpty() ? resource.kind() : resource.kind() + "." + resource.group();
        JsonObject details = new JsonObject();
        details.addProperty("name", name);
        if (!resource.group().isEmpty()) {
            details.addProperty("group", resource.group());
        }
        details.addProperty("kind", resource.kind());
        details.add("causes", causes(cause("FieldValueForbidden", "Forbidden: " + detail, field)));
        return new StatusException(StatusException.Reason.INVALID,
                kind + " \"" + name + "\" is invalid: " + field + ": Forbidden: " + detail, details);
    }

    /** 422 for a watch with {@code sendInitialEvents} on a server whose WatchList feature gate is off. */
    static StatusException watchListDisabled() {
        String detail = "sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled";
        JsonObject details = new JsonObject();
        details.addProperty("group", "meta.k8s.io");
        details.addProperty("kind", "ListOptions");
        details.add("causes", causes(cause("FieldValueForbidden", "Forbidden: " + detail, "sendInitialEvents")));
        return new StatusException(StatusException.Reason.INVALID,
                "ListOptions.meta.k8s.io \"\" is invalid: sendInitialEvents: Forbidden: " + detail, details);
    }

    /** 422 for an apply without the {@code fieldManager} query parameter. */
    static StatusException fieldManagerRequired() {
        JsonObject details = new JsonObject();
        details.addProperty("group", "meta.k8s.io");
        details.addProperty("kind", "PatchOptions");
        details.add("causes", causes(cause("FieldValueRequired", "Required value: is required for apply patch",
                "fieldManager")));
        return new StatusException(StatusException.Reason.INVALID,
                "PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value: is required for apply patch",
                details);
    }

    /** 409 for an apply changing fields other managers own, worded and ordered like the real server's. */
    static StatusException applyConflict(List<FieldManager.Conflict> conflicts) {
        JsonArray causes = new JsonArray();
        Map<String, List<String>> byOwner = new TreeMap<>();
        for (FieldManager.Conflict conflict : conflicts) {
            causes.add(cause("FieldManagerConflict", "conflict with " + conflict.describe(), conflict.path()));
            byOwner.computeIfAbsent(conflict.describe(), o -> new ArrayList<>()).add(conflict.path());
        }
        String message;
        if (conflicts.size() == 1) {
            message = "Apply failed with 1 conflict: conflict with " + conflicts.get(0).describe() + ": "
                    + conflicts.get(0).path();
        } else {
            List<String> lines = new ArrayList<>();
            byOwner.forEach((owner, paths) -> {
                lines.add("conflicts with " + owner + ":");
                paths.forEach(path -> lines.add("- " + path));
            });
            message = "Apply failed with " + conflicts.size() + " conflicts: " + String.join("\n", lines);
        }
        JsonObject details = new JsonObject();
        details.add("causes", causes);
        return new StatusException(StatusException.Reason.CONFLICT, message, details);
    }

    /** The {@code Status} a delete that removed an object answers with (most resources; some return the object). */
    static JsonObject deleted(ApiResource resource, JsonObject object) {
        JsonObject metadata = Json.object(object, "metadata");
        JsonObject details = new JsonObject();
        details.addProperty("name", Json.string(metadata, "name"));
        if (!resource.group().isEmpty()) {
            details.addProperty("group", resource.group());
        }
        details.addProperty("kind", resource.plural());
        details.addProperty("uid", Json.string(metadata, "uid"));
        JsonObject status = new JsonObject();
        status.addProperty("kind", "Status");
        status.addProperty("apiVersion", "v1");
        status.add("metadata", new JsonObject());
        status.addProperty("status", "Success");
        status.add("details", details);
        return status;
    }

    /** One entry of a Status's {@code details.causes}. */
    static JsonObject cause(String reason, String message, String field) {
        JsonObject cause = new JsonObject();
        cause.addProperty("reason", reason);
        cause.addProperty("message", message);
        cause.addProperty("field", field);
        return cause;
    }

    private static JsonArray causes(JsonObject... causes) {
        JsonArray array = new JsonArray();
        for (JsonObject cause : causes) {
            array.add(cause);
        }
        return array;
    }

    private static JsonObject details(String plural, String name) {
        JsonObject details = new JsonObject();
        details.addProperty("name", name);
        details.addProperty("kind", plural);
        return details;
    }
}
