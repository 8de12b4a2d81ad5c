package dev.watchkeeper.internal.watch.http;

import com.google.gson.Gson;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.google.gson.TypeAdapter;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonWriter;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1Status;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;

/**
 * The client's own decoding, which the byte readers are held to. Gson reads the text into a tree as the client's Gson
 * reads any text (leniently; of a repeated key the last wins), and the tree into the client's models by Gson's
 * reflection, with the client's adapters for times, dates and bytes and its {@code managedFields} rule. The client's
 * model adapters also reject fields the models do not know and check required fields; client-go does neither, and
 * nor does the watcher, so this leaves them out ({@link #model} checks that where the client's own Gson accepts an
 * object, it decodes it alike). A watch line is read as client-java's {@code Watch} reads one, but for a bookmark
 * only the two fields the watcher reads.
 */
final class ClientDecoding {

    static final Gson CLIENT = new JSON().getGson();
    private static final Gson MODELS = JSON.createGson()
            .registerTypeAdapter(OffsetDateTime.class, CLIENT.getAdapter(OffsetDateTime.class))
            .registerTypeAdapter(LocalDate.class, CLIENT.getAdapter(LocalDate.class))
            .registerTypeAdapter(Date.class, CLIENT.getAdapter(Date.class))
            .registerTypeAdapter(java.sql.Date.class, CLIENT.getAdapter(java.sql.Date.class))
            .registerTypeAdapter(byte[].class, CLIENT.getAdapter(byte[].class))
            .create();
    /**
     * Writes models for comparison: as the client writes them, but quantities as number and format, since the client
     * reads some quantities it cannot write ({@code 1e3}).
     */
    private static final Gson WRITER = MODELS.newBuilder().registerTypeAdapter(Quantity.class,
            new TypeAdapter<Quantity>() {
                @Override
                public void write(JsonWriter out, Quantity quantity) throws IOException {
                    out.value(quantity == null ? null
                            : quantity.getNumber().toPlainString() + " " + quantity.getFormat());
                }

                @Override
                public Quantity read(JsonReader in) {
                    throw new UnsupportedOperationException("only for writing");
                }
            }).create();
    private static final String INITIAL_EVENTS_END = "k8s.io/initial-events-end";

    private ClientDecoding() {
    }

    /** What the client makes of one watch line. */
    static <T extends KubernetesObject> Outcome watchLine(byte[] line, Class<T> type) {
        JsonElement root = tree(line);
        if (root == null || !root.isJsonObject()) {
            return new Outcome.Rejected("client: not a JSON object");
        }
        JsonElement typeField = root.getAsJsonObject().get("type");
        JsonElement object = root.getAsJsonObject().get("object");
        if (typeField == null || !typeField.isJsonPrimitive()) {
            return new Outcome.Rejected("client: no type");
        }
        String eventType = typeField.getAsString();
        switch (eventType) {
            case "ADDED", "MODIFIED", "DELETED" -> {
                T model = named(model(object, type));
                return model == null ? new Outcome.Rejected("client: no object of the type with a name")
                        : new Outcome.Change(eventType, written(model));
            }
            case "BOOKMARK" -> {
                // A bookmark's object is empty but for these two fields, which are all the watcher reads: the client
                // decodes the whole object, and rejects the line when a field nobody uses has the wrong type.
                JsonElement metadata = member(object, "metadata");
                return Outcome.bookmark(string(member(metadata, "resourceVersion")),
                        "true".equals(string(member(member(metadata, "annotations"), INITIAL_EVENTS_END))));
            }
            case "ERROR" -> {
                V1Status status = model(object, V1Status.class);
                return status == null ? new Outcome.Rejected("client: an error without a status")
                        : new Outcome.Error(status.getCode() == null ? 0 : status.getCode(),
                                status.getReason() == null ? "" : status.getReason());
            }
            default -> {
                return new Outcome.Rejected("client: an event of unknown type");
            }
        }
    }

    /** What the client makes of an object's JSON: its model, or rejected when it has none with a name. */
    static <T extends KubernetesObject> Outcome object(byte[] json, Class<T> type) {
        T model = named(model(tree(json), type));
        return model == null ? new Outcome.Rejected("client: no object of the type with a name")
                : new Outcome.Change(null, written(model));
    }

    /**
     * What the client makes of a list body's items, or {@code null} when the body is no list: the items in order, each
     * rejected or decoded as by {@link #object}.
     */
    static <T extends KubernetesObject> List<Outcome> listItems(byte[] body, Class<T> type) {
        JsonElement root = tree(body);
        JsonElement items = root instanceof JsonObject list ? list.get("items") : null;
        if (items == null || !items.isJsonArray()) {
            return null;
        }
        List<Outcome> outcomes = new ArrayList<>();
        for (JsonElement item : items.getAsJsonArray()) {
            T model = named(model(item, type));
            outcomes.add(model == null ? new Outcome.Rejected("client: no object of the type with a name")
                    : new Outcome.Change(null, written(model)));
        }
        return outcomes;
    }

    /** The member {@code name} of {@code element} if it is an object, else {@code null}. */
    private static JsonElement member(JsonElement element, String name) {
        return element instanceof JsonObject object ? object.get(name) : null;
    }

    /** A string field as the client's models read it: any JSON primitive as its text, else {@code null}. */
    private static String string(JsonElement element) {
        return element != null && element.isJsonPrimitive() ? element.getAsString() : null;
    }

    /** {@code model} as a JSON tree to compare. */
    static JsonElement written(Object model) {
        return WRITER.toJsonTree(model);
    }

    private static JsonElement tree(byte[] json) {
        try {
            return JsonParser.parseString(new String(json, StandardCharsets.UTF_8));
        } catch (JsonParseException notJson) {
            return null;
        }
    }

    /**
     * The model of {@code element}, or {@code null} if it is no JSON object or does not decode; where the client's own
     * Gson decodes it too, the two must agree.
     */
    private static <T> T model(JsonElement element, Class<T> type) {
        if (!(element instanceof JsonObject)) {
            return null;
        }
        T model;
        try {
            model = MODELS.fromJson(element, type);
        } catch (RuntimeException doesNotDecode) {
            return null;
        }
        T client;
        try {
            client = CLIENT.fromJson(element, type);
        } catch (RuntimeException rejectedByTheClientsChecks) {
            return model;
        }
        if (!written(client).equals(written(model))) {
            throw new AssertionError("the reference decodes " + element + " unlike the client's Gson: "
                    + written(model) + " instead of " + written(client));
        }
        return model;
    }

    private static <T extends KubernetesObject> T named(T model) {
        return model == null || model.getMetadata() == null || model.getMetadata().getName() == null ? null : model;
    }
}
