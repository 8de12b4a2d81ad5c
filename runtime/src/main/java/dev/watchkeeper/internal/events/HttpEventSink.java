package dev.watchkeeper.internal.events;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.watchkeeper.internal.api.FailedCall;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import okhttp3.Call;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes Events to the API server as {@code events.k8s.io/v1} (series in {@code series}), or as core/v1 Events
 * ({@code count}, {@code firstTimestamp}, {@code lastTimestamp}) where the server does not serve that group: decided
 * once, before the first write, by discovery ({@code GET /apis/events.k8s.io/v1}: a 404, or a list without
 * {@code events}, means core/v1); a discovery that fails otherwise is tried again before the next write. A series is a JSON merge patch of the Event; when the
 * Event is gone (404: expired, deleted) it is created again with the series, as client-go does.
 */
final class HttpEventSink implements EventSink {

    private static final Logger log = LoggerFactory.getLogger(HttpEventSink.class);
    /** The API server's limits on an Event's note, reason and action. */
    private static final int NOTE_BYTES = 1024;
    private static final int REASON_LIMIT = 128;
    private static final int ACTION_LIMIT = 128;
    /** metav1.MicroTime as the API server parses it: exactly six fraction digits. */
    private static final DateTimeFormatter MICRO_TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss'Z'").withZone(ZoneOffset.UTC);

    private final ApiClient client;
    private final Reporter reporter;
    /** {@code null} until discovery answered. */
    private Boolean eventsV1;

    HttpEventSink(ApiClient client, Reporter reporter) {
        this.client = client;
        this.reporter = reporter;
    }

    /** @throws FailedCall naming the verb ({@code create}, {@code patch}), the resource and the Event */
    @Override
    public void write(EventWrite write) throws ApiException {
        boolean v1 = servesEventsV1();
        String resource = v1 ? "events.events.k8s.io" : "events";
        String object = write.namespace() + "/" + write.name();
        if (write instanceof EventWrite.Series series) {
            try {
                send("PATCH", path(v1, write.namespace()) + "/" + write.name(),
                        v1 ? seriesPatch(series) : countPatch(series), "application/merge-patch+json");
                return;
            } catch (ApiException e) {
                if (e.getCode() != 404) {
                    throw FailedCall.of("patch", resource, null, object, e);
                }
            }
        }
        try {
            send("POST", path(v1, write.namespace()), v1 ? eventsV1(write) : coreV1(write), "application/json");
        } catch (ApiException e) {
            throw FailedCall.of("create", resource, null, object, e);
        }
    }

    /** Whether events.k8s.io/v1 serves {@code events}; asked once. */
    boolean servesEventsV1() throws ApiException {
        if (eventsV1 == null) {
            boolean served;
            try {
                JsonElement list = send("GET", "/apis/events.k8s.io/v1", null, "application/json");
                JsonElement resources = list != null && list.isJsonObject()
                        ? list.getAsJsonObject().get("resources") : null;
                served = resources != null && resources.isJsonArray() && resources.getAsJsonArray().asList().stream()
                        .anyMatch(r -> r.isJsonObject() && r.getAsJsonObject().has("name")
                                && "events".equals(r.getAsJsonObject().get("name").getAsString()));
            } catch (ApiException e) {
                if (e.getCode() != 404) {
                    throw e;
                }
                served = false;
            }
            eventsV1 = served;
            if (!served) {
                log.info("the API server does not serve events.k8s.io/v1 events; Events are written as core/v1 Events");
            }
        }
        return eventsV1;
    }

    private static String path(boolean v1, String namespace) {
        return (v1 ? "/apis/events.k8s.io/v1" : "/api/v1") + "/namespaces/" + namespace + "/events";
    }

    private JsonObject eventsV1(EventWrite write) {
        Occurrence first = write.first();
        JsonObject event = header("events.k8s.io/v1", write);
        event.addProperty("eventTime", MICRO_TIME.format(first.at()));
        event.addProperty("reportingController", reporter.controller(first.component()));
        event.addProperty("reportingInstance", reporter.instance());
        event.addProperty("action", cut(first.action(), ACTION_LIMIT));
        event.addProperty("reason", cut(first.reason(), REASON_LIMIT));
        event.addProperty("note", note(first.note()));
        event.addProperty("type", first.type());
        event.add("regarding", reference(first.regarding()));
        if (write instanceof EventWrite.Series series) {
            event.add("series", seriesPatch(series).get("series"));
        }
        return event;
    }

    private JsonObject coreV1(EventWrite write) {
        Occurrence first = write.first();
        String controller = reporter.controller(first.component());
        JsonObject event = header("v1", write);
        event.add("involvedObject", reference(first.regarding()));
        event.addProperty("reason", cut(first.reason(), REASON_LIMIT));
        event.addProperty("message", note(first.note()));
        event.addProperty("type", first.type());
        event.addProperty("action", cut(first.action(), ACTION_LIMIT));
        event.addProperty("firstTimestamp", TIME.format(first.at()));
        JsonObject source = new JsonObject();
        source.addProperty("component", controller);
        event.add("source", source);
        event.addProperty("reportingComponent", controller);
        event.addProperty("reportingInstance", reporter.instance());
        countPatch(write instanceof EventWrite.Series series ? series
                : new EventWrite.Series(first, write.namespace(), write.name(), 1, first.at()))
                .entrySet().forEach(field -> event.add(field.getKey(), field.getValue()));
        return event;
    }

    private static JsonObject header(String apiVersion, EventWrite write) {
        JsonObject event = new JsonObject();
        event.addProperty("apiVersion", apiVersion);
        event.addProperty("kind", "Event");
        JsonObject metadata = new JsonObject();
        metadata.addProperty("name", write.name());
        metadata.addProperty("namespace", write.namespace());
        event.add("metadata", metadata);
        return event;
    }

    private static JsonObject seriesPatch(EventWrite.Series series) {
        JsonObject value = new JsonObject();
        value.addProperty("count", series.count());
        value.addProperty("lastObservedTime", MICRO_TIME.format(series.lastObserved()));
        JsonObject patch = new JsonObject();
        patch.add("series", value);
        return patch;
    }

    private static JsonObject countPatch(EventWrite.Series series) {
        JsonObject patch = new JsonObject();
        patch.addProperty("count", series.count());
        patch.addProperty("lastTimestamp", TIME.format(series.lastObserved()));
        return patch;
    }

    private static JsonObject reference(Occurrence.Regarding regarding) {
        JsonObject reference = new JsonObject();
        reference.addProperty("apiVersion", regarding.apiVersion());
        reference.addProperty("kind", regarding.kind());
        reference.addProperty("namespace", regarding.namespace());
        reference.addProperty("name", regarding.name());
        reference.addProperty("uid", regarding.uid());
        return reference;
    }

    private static String cut(String text, int limit) {
        return text.length() > limit ? text.substring(0, limit) : text;
    }

    /** At most {@value #NOTE_BYTES} bytes of UTF-8, cut between characters. */
    static String note(String note) {
        if (note.length() * 3 <= NOTE_BYTES) {
            return note;
        }
        CharsetEncoder encoder = StandardCharsets.UTF_8.newEncoder().onMalformedInput(CodingErrorAction.REPLACE)
                .onUnmappableCharacter(CodingErrorAction.REPLACE);
        CharBuffer in = CharBuffer.wrap(note);
        encoder.encode(in, ByteBuffer.allocate(NOTE_BYTES), true);
        return note.substring(0, in.position());
    }

    private JsonElement send(String method, String path, JsonObject body, String contentType) throws ApiException {
        Map<String, String> headers = new HashMap<>();
        headers.put("Accept", "application/json");
        headers.put("Content-Type", contentType);
        Call call = client.buildCall(null, path, method, List.of(), List.of(),
                body, headers, Map.of(), Map.of(), new String[] {"BearerToken"}, null);
        return client.<JsonElement>execute(call, JsonElement.class).getData();
    }
}
