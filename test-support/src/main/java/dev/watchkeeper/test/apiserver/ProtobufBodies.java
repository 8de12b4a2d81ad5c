package dev.watchkeeper.test.apiserver;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;
import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import io.kubernetes.client.proto.Runtime;

import java.lang.reflect.InvocationTargetException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads request bodies in {@code application/vnd.kubernetes.protobuf}, which kubectl sends for built-in kinds (e.g.
 * {@code kubectl create configmap}): the magic {@code k8s\0}, then a {@code runtime.Unknown} whose {@code raw} is
 * the object, decoded with client-java-proto's message of its apiVersion and kind and turned into the JSON the
 * real server would store. Field names come from the resource's schema.
 *
 * <p>Go writes every non-pointer field, so the protobuf carries zero values JSON would omit: empty strings,
 * {@code false}, empty lists, maps and objects, and the zero time are dropped (also an explicit {@code false});
 * zero numbers are kept, as protobuf cannot tell them from numbers a client set (e.g. {@code replicas: 0}), so a
 * container port reads {@code hostPort: 0} where the real server stores none.
 */
final class ProtobufBodies {

    static final String CONTENT_TYPE = "application/vnd.kubernetes.protobuf";
    private static final byte[] MAGIC = {'k', '8', 's', 0};
    private static final String PROTO_PACKAGE = "io.kubernetes.client.proto.";

    private ProtobufBodies() {
    }

    static boolean isProtobuf(String contentType) {
        return contentType.startsWith(CONTENT_TYPE);
    }

    /**
     * The object in a protobuf body.
     *
     * @throws StatusException 400 when the body is not a Kubernetes protobuf envelope, 415 when client-java-proto
     *                         has no message for its kind
     */
    static JsonObject decode(byte[] body, ResourceSchemas.ResourceSchema schema) {
        if (body.length < MAGIC.length || !Arrays.equals(Arrays.copyOf(body, MAGIC.length), MAGIC)) {
            throw Statuses.badRequest("the protobuf body does not start with the Kubernetes magic number");
        }
        Runtime.Unknown envelope;
        try {
            envelope = Runtime.Unknown.parseFrom(Arrays.copyOfRange(body, MAGIC.length, body.length));
        } catch (InvalidProtocolBufferException e) {
            throw Statuses.badRequest("the protobuf body is not a runtime.Unknown: " + e.getMessage());
        }
        String apiVersion = envelope.getTypeMeta().getApiVersion();
        String kind = envelope.getTypeMeta().getKind();
        JsonObject object = toJson(parse(apiVersion, kind, envelope.getRaw()), schema.root(), schema);
        object.addProperty("apiVersion", apiVersion);
        object.addProperty("kind", kind);
        return object;
    }

    private static Message parse(String apiVersion, String kind, ByteString raw) {
        String group = apiVersion.contains("/") ? apiVersion.substring(0, apiVersion.indexOf('/')) : "";
        String version = apiVersion.substring(apiVersion.indexOf('/') + 1);
        String outer = capitalize(version) + (group.isEmpty() ? "" : capitalize(group.split("\\.")[0]));
        try {
            Class<?> type = Class.forName(PROTO_PACKAGE + outer + "$" + kind);
            return (Message) type.getMethod("parseFrom", ByteString.class).invoke(null, raw);
        } catch (ClassNotFoundException | NoSuchMethodException | IllegalAccessException e) {
            throw new StatusException(StatusException.Reason.UNSUPPORTED_MEDIA_TYPE, "the body of the request was in"
                    + " an unknown format (" + CONTENT_TYPE + ") for " + apiVersion + " " + kind
                    + " - accepted media types include: application/json");
        } catch (InvocationTargetException e) {
            throw Statuses.badRequest("the protobuf body is not a valid " + kind + ": " + e.getCause().getMessage());
        }
    }

    private static JsonObject toJson(Message message, JsonObject schema, ResourceSchemas.ResourceSchema schemas) {
        JsonObject resolved = schemas.resolve(schema);
        JsonObject properties = Json.object(resolved, "properties");
        JsonObject json = new JsonObject();
        for (Map.Entry<FieldDescriptor, Object> field : message.getAllFields().entrySet()) {
            String name = jsonName(field.getKey(), properties);
            JsonObject fieldSchema = properties.has(name) ? properties.getAsJsonObject(name) : new JsonObject();
            JsonElement value = field.getKey().isMapField()
                    ? mapToJson((List<?>) field.getValue(), fieldSchema, schemas)
                    : field.getKey().isRepeated()
                    ? listToJson(field.getKey(), (List<?>) field.getValue(), fieldSchema, schemas)
                    : valueToJson(field.getKey(), field.getValue(), fieldSchema, schemas);
            if (value != null) {
                json.add(name, value);
            }
        }
        return json;
    }

    private static JsonElement mapToJson(List<?> entries, JsonObject schema, ResourceSchemas.ResourceSchema schemas) {
        JsonObject valueSchema = Json.object(schemas.resolve(schema), "additionalProperties");
        JsonObject map = new JsonObject();
        for (Object entry : entries) {
            Message pair = (Message) entry;
            FieldDescriptor key = pair.getDescriptorForType().findFieldByName("key");
            FieldDescriptor value = pair.getDescriptorForType().findFieldByName("value");
            JsonElement converted = valueToJson(value, pair.getField(value), valueSchema, schemas);
            map.add(String.valueOf(pair.getField(key)), converted == null ? new JsonPrimitive("") : converted);
        }
        return map.isEmpty() ? null : map;
    }

    private static JsonElement listToJson(FieldDescriptor field, List<?> values, JsonObject schema,
                                          ResourceSchemas.ResourceSchema schemas) {
        JsonObject itemSchema = Json.object(schemas.resolve(schema), "items");
        JsonArray array = new JsonArray();
        for (Object value : values) {
            JsonElement converted = valueToJson(field, value, itemSchema, schemas);
            array.add(converted == null ? emptyLike(field) : converted);
        }
        return array.isEmpty() ? null : array;
    }

    /** A single value as JSON, or {@code null} when Go's JSON would omit it. */
    private static JsonElement valueToJson(FieldDescriptor field, Object value, JsonObject schema,
                                           ResourceSchemas.ResourceSchema schemas) {
        return switch (field.getJavaType()) {
            case STRING -> ((String) value).isEmpty() ? null : new JsonPrimitive((String) value);
            case BYTE_STRING -> ((ByteString) value).isEmpty() ? null
                    : new JsonPrimitive(Base64.getEncoder().encodeToString(((ByteString) value).toByteArray()));
            case BOOLEAN -> (Boolean) value ? new JsonPrimitive(true) : null;
            case INT, LONG, FLOAT, DOUBLE -> new JsonPrimitive((Number) value);
            case ENUM -> new JsonPrimitive(value.toString());
            case MESSAGE -> messageToJson((Message) value, schema, schemas);
        };
    }

    /** Kubernetes' wrapper messages have their own JSON forms; other messages are objects. */
    private static JsonElement messageToJson(Message message, JsonObject schema, ResourceSchemas.ResourceSchema schemas) {
        String type = message.getDescriptorForType().getFullName();
        if (type.endsWith("meta.v1.Time") || type.endsWith("meta.v1.MicroTime")) {
            long seconds = (Long) field(message, "seconds");
            int nanos = (Integer) field(message, "nanos");
            return seconds == 0 && nanos == 0 ? null
                    : new JsonPrimitive(Instant.ofEpochSecond(seconds, nanos).toString());
        }
        if (type.endsWith("intstr.IntOrString")) {
            return ((Number) field(message, "type")).longValue() == 0
                    ? new JsonPrimitive((Number) field(message, "intVal"))
                    : new JsonPrimitive((String) field(message, "strVal"));
        }
        if (type.endsWith("resource.Quantity")) {
            return new JsonPrimitive((String) field(message, "string"));
        }
        if (type.endsWith("runtime.RawExtension") || type.endsWith("meta.v1.FieldsV1") || type.endsWith("v1.JSON")) {
            ByteString raw = (ByteString) field(message, "raw");
            return raw.isEmpty() ? null : JsonParser.parseString(raw.toString(StandardCharsets.UTF_8));
        }
        JsonObject object = toJson(message, schema, schemas);
        return object.isEmpty() ? null : object;
    }

    private static Object field(Message message, String name) {
        return message.getField(message.getDescriptorForType().findFieldByName(name));
    }

    private static JsonElement emptyLike(FieldDescriptor field) {
        return field.getJavaType() == FieldDescriptor.JavaType.MESSAGE ? new JsonObject() : new JsonPrimitive("");
    }

    /** The schema's property spelled like the protobuf field ({@code ref} is {@code $ref}), else its JSON name. */
    private static String jsonName(FieldDescriptor field, JsonObject properties) {
        String wanted = normalized(field.getName());
        for (String property : properties.keySet()) {
            if (normalized(property).equals(wanted)) {
                return property;
            }
        }
        return field.getJsonName();
    }

    private static String normalized(String name) {
        return name.replaceAll("[^A-Za-z0-9]", "").toLowerCase(Locale.ROOT);
    }

    private static String capitalize(String text) {
        return text.isEmpty() ? text : text.substring(0, 1).toUpperCase(Locale.ROOT) + text.substring(1);
    }
}
