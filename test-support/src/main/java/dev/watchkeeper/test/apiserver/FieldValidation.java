package dev.watchkeeper.test.apiserver;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The {@code fieldValidation} of a create, update or patch: fields the resource's schema ({@link ResourceSchemas})
 * does not know are dropped from the object, as the real server's decoding drops them, and reported as the
 * directive asks: {@code Strict} fails the request, {@code Warn} (the default, also when absent) answers with one
 * {@code Warning: 299 - "unknown field \"spec.foo\""} header per field, {@code Ignore} says nothing.
 *
 * <p>A field is unknown when an object's schema neither declares it nor allows more ({@code additionalProperties},
 * {@code x-kubernetes-preserve-unknown-fields}). For built-in kinds that is decided by client-java 27's models, so
 * a field newer than them is unknown here; a custom resource whose schema preserves unknown fields has none.
 * Duplicate fields are not detected (the JSON parser keeps the last).
 *
 * <pre>{@code
 * FieldValidation validation = FieldValidation.of(call, "CreateOptions");
 * JsonObject body = validation.forCreate(resource, schema, Json.parseObject(call.body()));
 * }</pre>
 */
final class FieldValidation {

    private static final Set<String> EMBEDDED_FIELDS = Set.of("apiVersion", "kind", "metadata");

    private final Directive directive;
    private final List<String> warnings = new ArrayList<>();

    private FieldValidation(Directive directive) {
        this.directive = directive;
    }

    /** How unknown fields are reported. */
    enum Directive { IGNORE, WARN, STRICT }

    /**
     * The directive of a request.
     *
     * @param optionsKind {@code CreateOptions}, {@code UpdateOptions} or {@code PatchOptions}, for the error
     * @throws StatusException 422 when the value is none of {@code Ignore}, {@code Warn}, {@code Strict}
     */
    static FieldValidation of(HttpCall call, String optionsKind) {
        String value = call.param("fieldValidation");
        Directive directive = switch (value == null ? "" : value) {
            case "", "Warn" -> Directive.WARN;
            case "Ignore" -> Directive.IGNORE;
            case "Strict" -> Directive.STRICT;
            default -> throw unsupported(optionsKind, value);
        };
        return new FieldValidation(directive);
    }

    /**
     * Checks the body of a create or update and returns it without unknown fields.
     *
     * @throws StatusException 400 BadRequest under {@code Strict} when a field is unknown
     */
    JsonObject checkBody(ApiResource resource, ResourceSchemas.ResourceSchema schema, JsonObject body) {
        JsonObject checked = body.deepCopy();
        List<String> unknown = dropUnknownFields(checked, schema);
        if (!unknown.isEmpty() && directive == Directive.STRICT) {
            throw Statuses.badRequest(resource.kind() + " in version \"" + resource.version()
                    + "\" cannot be handled as a " + resource.kind() + ": " + strictError(unknown));
        }
        report(unknown);
        return checked;
    }

    /**
     * Checks an object as a patch left it and returns it without unknown fields.
     *
     * @throws StatusException 422 Invalid under {@code Strict} when a field is unknown, quoting the patched object
     */
    JsonObject checkPatched(ResourceSchemas.ResourceSchema schema, JsonObject patched) {
        JsonObject checked = patched.deepCopy();
        List<String> unknown = dropUnknownFields(checked, schema);
        if (!unknown.isEmpty() && directive == Directive.STRICT) {
            String invalid = "Invalid value: \"" + Json.GSON.toJson(patched).replace("\"", "\\\"") + "\": "
                    + strictError(unknown);
            throw new StatusException(StatusException.Reason.INVALID, " \"\" is invalid: patch: " + invalid,
                    causes(Statuses.cause("FieldValueInvalid", invalid, "patch")));
        }
        report(unknown);
        return checked;
    }

    /** The {@code Warning} header values collected by the checks, e.g. {@code 299 - "unknown field \"foo\""}. */
    List<String> warnings() {
        return List.copyOf(warnings);
    }

    /** Removes the fields {@code schema} does not know from {@code object}; returns their paths in body order. */
    static List<String> dropUnknownFields(JsonObject object, ResourceSchemas.ResourceSchema schema) {
        List<String> unknown = new ArrayList<>();
        walk(object, schema.root(), "", schema, unknown);
        return unknown;
    }

    private void report(List<String> unknown) {
        if (directive == Directive.WARN) {
            unknown.forEach(field -> warnings.add("299 - \"unknown field \\\"" + field + "\\\"\""));
        }
    }

    private static void walk(JsonElement value, JsonObject declared, String path, ResourceSchemas.ResourceSchema schemas,
                             List<String> unknown) {
        JsonObject schema = schemas.resolve(declared);
        if (value.isJsonArray() && schema.has("items") && schema.get("items").isJsonObject()) {
            JsonArray array = value.getAsJsonArray();
            for (int i = 0; i < array.size(); i++) {
                walk(array.get(i), schema.getAsJsonObject("items"), path + "[" + i + "]", schemas, unknown);
            }
            return;
        }
        if (!value.isJsonObject() || !("object".equals(Json.string(schema, "type")) || schema.has("properties"))) {
            return;
        }
        JsonObject properties = Json.object(schema, "properties");
        JsonElement additional = schema.get("additionalProperties");
        boolean open = flag(schema, "x-kubernetes-preserve-unknown-fields")
                || (additional != null && additional.isJsonPrimitive() && additional.getAsBoolean());
        boolean embedded = flag(schema, "x-kubernetes-embedded-resource");
        Iterator<Map.Entry<String, JsonElement>> fields = value.getAsJsonObject().entrySet().iterator();
        while (fields.hasNext()) {
            Map.Entry<String, JsonElement> field = fields.next();
            String fieldPath = path.isEmpty() ? field.getKey() : path + "." + field.getKey();
            if (properties.has(field.getKey())) {
                walk(field.getValue(), properties.getAsJsonObject(field.getKey()), fieldPath, schemas, unknown);
            } else if (additional != null && additional.isJsonObject()) {
                walk(field.getValue(), additional.getAsJsonObject(), fieldPath, schemas, unknown);
            } else if (!open && !(embedded && EMBEDDED_FIELDS.contains(field.getKey()))) {
                unknown.add(fieldPath);
                fields.remove();
            }
        }
    }

    private static boolean flag(JsonObject schema, String name) {
        JsonElement value = schema.get(name);
        return value != null && value.isJsonPrimitive() && value.getAsBoolean();
    }

    private static String strictError(List<String> unknown) {
        return "strict decoding error: " + unknown.stream().map(field -> "unknown field \"" + field + "\"")
                .collect(Collectors.joining(", "));
    }

    private static StatusException unsupported(String optionsKind, String value) {
        String message = "Unsupported value: \"" + value + "\": supported values: \"\", \"Ignore\", \"Strict\", "
                + "\"Warn\"";
        JsonObject details = causes(Statuses.cause("FieldValueNotSupported", message, "fieldValidation"));
        details.addProperty("group", "meta.k8s.io");
        details.addProperty("kind", optionsKind);
        return new StatusException(StatusException.Reason.INVALID,
                optionsKind + ".meta.k8s.io \"\" is invalid: fieldValidation: " + message, details);
    }


    private static JsonObject causes(JsonObject cause) {
        JsonArray causes = new JsonArray();
        causes.add(cause);
        JsonObject details = new JsonObject();
        details.add("causes", causes);
        return details;
    }
}
