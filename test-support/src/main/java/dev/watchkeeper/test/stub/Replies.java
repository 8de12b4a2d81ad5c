package dev.watchkeeper.test.stub;

import com.github.tomakehurst.wiremock.http.Fault;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Everything a {@link KubeApiStub} script is made of, as static factories meant for {@code import static}:
 * list pages, watch streams and their events, error Statuses shaped like a real API server's (docs/semantics.md §12),
 * connection faults and raw bodies.
 *
 * <pre>{@code
 * stub.on("/api/v1/namespaces/default/configmaps")
 *     .list(page(cm("a")).continueToken("c1"))
 *     .list(page(cm("b")).resourceVersion("3"))
 *     .watch(events(added(cm("d", "4"))).thenStayOpen())
 *     .watch(status(503))
 *     .list(forbidden("configmaps", "default"));
 * }</pre>
 */
public final class Replies {

    /** The annotation on the BOOKMARK that ends a streaming list's initial events. */
    public static final String INITIAL_EVENTS_END = "k8s.io/initial-events-end";

    private Replies() {
    }

    // ---- objects

    /** A ConfigMap {@code default/name} without a resourceVersion. */
    public static V1ConfigMap cm(String name) {
        return cm(name, null);
    }

    /** A ConfigMap {@code default/name} at {@code resourceVersion}. */
    public static V1ConfigMap cm(String name, String resourceVersion) {
        return new V1ConfigMap().apiVersion("v1").kind("ConfigMap")
                .metadata(new V1ObjectMeta().namespace("default").name(name).resourceVersion(resourceVersion))
                .data(Map.of("key", name));
    }

    // ---- lists

    /** A last page holding {@code items} (model objects or JSON text), list resourceVersion "1". */
    public static PageAnswer page(Object... items) {
        return new PageAnswer(Arrays.asList(items), "1", null);
    }

    /** A last page holding {@code items}, list resourceVersion "1". */
    public static PageAnswer page(List<?> items) {
        return new PageAnswer(List.copyOf(items), "1", null);
    }

    // ---- watches

    /** A watch response sending {@code lines}, then ending normally (change it with {@code thenReset()} etc.). */
    public static StreamAnswer events(WatchLine... lines) {
        return new StreamAnswer(Arrays.asList(lines), StreamAnswer.Ending.EOF, java.time.Duration.ZERO);
    }

    /** A watch response that ends at once with status 200 and an empty body, like a misbehaving proxy. */
    public static StreamAnswer emptyWatch() {
        return events();
    }

    /** {@code {"type":"ADDED","object":…}}. */
    public static WatchLine added(Object object) {
        return event("ADDED", object);
    }

    /** {@code {"type":"MODIFIED","object":…}}. */
    public static WatchLine modified(Object object) {
        return event("MODIFIED", object);
    }

    /** {@code {"type":"DELETED","object":…}}. */
    public static WatchLine deleted(Object object) {
        return event("DELETED", object);
    }

    /** A BOOKMARK at {@code resourceVersion}, for ConfigMaps. */
    public static WatchLine bookmark(String resourceVersion) {
        return bookmark("v1", "ConfigMap", resourceVersion, false);
    }

    /** The BOOKMARK annotated {@code k8s.io/initial-events-end: "true"} that ends a streaming list's initial events. */
    public static WatchLine initialEventsEnd(String resourceVersion) {
        return bookmark("v1", "ConfigMap", resourceVersion, true);
    }

    /** A BOOKMARK for any kind, optionally ending the initial events of a streaming list. */
    public static WatchLine bookmark(String apiVersion, String kind, String resourceVersion, boolean initialEventsEnd) {
        JsonObject metadata = new JsonObject();
        metadata.addProperty("resourceVersion", resourceVersion);
        if (initialEventsEnd) {
            JsonObject annotations = new JsonObject();
            annotations.addProperty(INITIAL_EVENTS_END, "true");
            metadata.add("annotations", annotations);
        }
        JsonObject object = new JsonObject();
        object.addProperty("kind", kind);
        object.addProperty("apiVersion", apiVersion);
        object.add("metadata", metadata);
        return event("BOOKMARK", object);
    }

    /** An ERROR event carrying {@code status}'s Status object. */
    public static WatchLine errorEvent(StatusReply status) {
        return new WatchLine("{\"type\":\"ERROR\",\"object\":" + status.json() + "}");
    }

    /** The ERROR event a server sends when a watch's resourceVersion was compacted away (410 Expired). */
    public static WatchLine expiredEvent(String requested, String oldest) {
        return errorEvent(statusOf(410, "Expired", "too old resource version: " + requested + " (" + oldest + ")",
                null, null));
    }

    /** A line that is not JSON at all, e.g. <code>"&#123;oops"</code>. */
    public static WatchLine notJson(String text) {
        return new WatchLine(text);
    }

    /**
     * A well-formed ADDED event whose object cannot be decoded as a ConfigMap ({@code data} is a string, not a
     * map); its metadata still names it.
     */
    public static WatchLine undecodable(String name, String resourceVersion) {
        return new WatchLine("{\"type\":\"ADDED\",\"object\":{\"kind\":\"ConfigMap\",\"apiVersion\":\"v1\","
                + "\"metadata\":{\"name\":\"" + name + "\",\"namespace\":\"default\",\"resourceVersion\":\""
                + resourceVersion + "\"},\"data\":\"not-a-map\"}}");
    }

    /** Any line, sent verbatim. */
    public static WatchLine line(String text) {
        return new WatchLine(text);
    }

    // ---- errors (docs/semantics.md §12)

    /** HTTP {@code code} with the Status a real server sends for it (reason and a realistic message). */
    public static StatusReply status(int code) {
        return switch (code) {
            case 400 -> statusOf(400, "BadRequest", "the server rejected our request for an unknown reason", null,
                    null);
            case 401 -> statusOf(401, "Unauthorized", "Unauthorized", null, null);
            case 403 -> forbidden("configmaps", "default");
            case 404 -> crdMissing();
            case 410 -> expired();
            case 429 -> tooManyRequests(1);
            case 500 -> internalError();
            case 503 -> serviceUnavailable();
            case 504 -> statusOf(504, "Timeout", "the server was unable to return a response in the time allotted, "
                    + "but may still be processing the request", new JsonObject(), null);
            default -> statusOf(code, "Unknown", "the server responded with the status code " + code
                    + " but did not return more information", new JsonObject(), null);
        };
    }

    /** 403 for {@code list} of core-group {@code resource} in {@code namespace} ({@code null} = cluster scope). */
    public static StatusReply forbidden(String resource, String namespace) {
        return forbidden("list", "", resource, namespace);
    }

    /** 403 for {@code verb} of {@code resource} in API group {@code group} ("" = core). */
    public static StatusReply forbidden(String verb, String group, String resource, String namespace) {
        String scope = namespace == null ? "at the cluster scope" : "in the namespace \"" + namespace + "\"";
        JsonObject details = new JsonObject();
        details.addProperty("kind", resource);
        if (!group.isEmpty()) {
            details.addProperty("group", group);
        }
        return statusOf(403, "Forbidden", resource + " is forbidden: User \"system:serviceaccount:default:app\" "
                + "cannot " + verb + " resource \"" + resource + "\" in API group \"" + group + "\" " + scope,
                details, null);
    }

    /** 404 as served for a resource whose CustomResourceDefinition is not installed. */
    public static StatusReply crdMissing() {
        return statusOf(404, "NotFound", "the server could not find the requested resource", new JsonObject(), null);
    }

    /** 410 Expired for a list continue token that is too old. */
    public static StatusReply expired() {
        return statusOf(410, "Expired", "The provided continue parameter is too old to display a consistent list "
                + "result. You can start a new list without the continue parameter, or use the continue token in "
                + "this response to retrieve the remainder of the results. Continuing with the provided token "
                + "results in an inconsistent list - objects that were created, modified, or deleted between the "
                + "time the first chunk was returned and now may show up in the list.", null, null);
    }

    /** HTTP 410 Expired for a watch started from a compacted resourceVersion. */
    public static StatusReply tooOldResourceVersion(String requested, String oldest) {
        return statusOf(410, "Expired", "too old resource version: " + requested + " (" + oldest + ")", null, null);
    }

    /**
     * HTTP 504 for a list or watch from a resourceVersion the server has not reached yet (its watch cache trails, or
     * it is another API server than the one that served that version), with the cause {@code ResourceVersionTooLarge}.
     */
    public static StatusReply tooLargeResourceVersion(String requested, String current) {
        JsonObject cause = new JsonObject();
        cause.addProperty("reason", "ResourceVersionTooLarge");
        cause.addProperty("message", "Too large resource version");
        JsonArray causes = new JsonArray();
        causes.add(cause);
        JsonObject details = new JsonObject();
        details.add("causes", causes);
        details.addProperty("retryAfterSeconds", 1);
        return statusOf(504, "Timeout", "Timeout: Too large resource version: " + requested + ", current: " + current,
                details, 1);
    }

    /** 429 with {@code Retry-After: seconds} and {@code details.retryAfterSeconds}. */
    public static StatusReply tooManyRequests(int seconds) {
        JsonObject details = new JsonObject();
        details.addProperty("retryAfterSeconds", seconds);
        return statusOf(429, "TooManyRequests", "Too many requests, please try again later.", details, seconds);
    }

    /** 500, as when etcd times out. */
    public static StatusReply internalError() {
        return statusOf(500, "InternalError", "Internal error occurred: etcdserver: request timed out",
                new JsonObject(), null);
    }

    /** 503, as when the API server or an aggregated API is unavailable. */
    public static StatusReply serviceUnavailable() {
        return statusOf(503, "ServiceUnavailable", "the server is currently unable to handle the request",
                new JsonObject(), null);
    }

    /** Any Status; {@code details} may be null (left out), {@code retryAfterSeconds} null for no header. */
    public static StatusReply statusOf(int code, String reason, String message, JsonObject details,
            Integer retryAfterSeconds) {
        JsonObject status = new JsonObject();
        status.addProperty("kind", "Status");
        status.addProperty("apiVersion", "v1");
        status.add("metadata", new JsonObject());
        status.addProperty("status", "Failure");
        status.addProperty("message", message);
        status.addProperty("reason", reason);
        if (details != null) {
            status.add("details", details);
        }
        status.addProperty("code", code);
        return new StatusReply(code, reason, message, status.toString(), retryAfterSeconds);
    }

    // ---- broken transports and bodies

    /** WireMock's connection reset by peer. */
    public static FaultReply connectionReset() {
        return new FaultReply(Fault.CONNECTION_RESET_BY_PEER);
    }

    /** WireMock's empty response: the connection closes without a status line. */
    public static FaultReply emptyResponse() {
        return new FaultReply(Fault.EMPTY_RESPONSE);
    }

    /** WireMock's malformed chunk: status 200, then a broken chunked body. */
    public static FaultReply malformedChunk() {
        return new FaultReply(Fault.MALFORMED_RESPONSE_CHUNK);
    }

    /** WireMock's garbage bytes, then close. */
    public static FaultReply randomDataThenClose() {
        return new FaultReply(Fault.RANDOM_DATA_THEN_CLOSE);
    }

    /** Status 200 with a body that is not JSON, e.g. a proxy's login page. */
    public static RawReply nonJson200(String body) {
        return new RawReply(200, "text/html; charset=utf-8", body);
    }

    static WatchLine event(String type, Object object) {
        return new WatchLine("{\"type\":\"" + type + "\",\"object\":" + toJson(object) + "}");
    }

    /** A model object through client-java's gson; a String is taken to be JSON already (checked). */
    static String toJson(Object object) {
        if (object instanceof String json) {
            JsonParser.parseString(json);
            return json;
        }
        if (object instanceof JsonObject tree) {
            return tree.toString();
        }
        return JSON.serialize(object);
    }
}
