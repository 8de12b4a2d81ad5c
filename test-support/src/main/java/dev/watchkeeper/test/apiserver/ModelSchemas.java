package dev.watchkeeper.test.apiserver;

import com.google.gson.JsonObject;
import com.google.gson.annotations.SerializedName;
import io.kubernetes.client.custom.IntOrString;
import io.kubernetes.client.custom.Quantity;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * OpenAPI v3 schemas of client-java's model classes, read from their Gson field names and Java field types: the
 * structure of a built-in kind as client-java 27 knows it (property names and types; no descriptions, no
 * validation, no {@code x-kubernetes-patch-merge-key}). Each model class is one component named by its class name,
 * e.g. {@code io.kubernetes.client.openapi.models.V1ConfigMap}, and referenced with {@code $ref}.
 */
final class ModelSchemas {

    static final String REF_PREFIX = "#/components/schemas/";
    private static final String MODELS = "io.kubernetes.client.openapi.models.";

    private static final Map<Class<?>, Model> MODELS_READ = new ConcurrentHashMap<>();

    private ModelSchemas() {
    }

    /**
     * The model class of a built-in kind, e.g. {@code V1ConfigMap} for {@code v1 ConfigMap} and
     * {@code EventsV1Event} for {@code events.k8s.io/v1 Event} (client-java prefixes kinds that two groups share).
     */
    static Optional<Class<?>> modelOf(String group, String version, String kind) {
        String versionName = version.substring(0, 1).toUpperCase(Locale.ROOT) + version.substring(1);
        String groupName = group.isEmpty() ? "Core" : group.substring(0, 1).toUpperCase(Locale.ROOT)
                + group.substring(1, group.contains(".") ? group.indexOf('.') : group.length());
        for (String name : List.of(groupName + versionName + kind, versionName + kind)) {
            try {
                Class<?> type = Class.forName(MODELS + name, false, ModelSchemas.class.getClassLoader());
                if (isModel(type)) {
                    return Optional.of(type);
                }
            } catch (ClassNotFoundException e) {
                // try the next spelling
            }
        }
        return Optional.empty();
    }

    /** The component name of a model class. */
    static String componentName(Class<?> model) {
        return model.getName();
    }

    /**
     * Adds the schema of {@code model} and of every model it reaches to {@code components}; the schemas are shared,
     * so callers must not modify them.
     */
    static void collect(Class<?> model, Map<String, JsonObject> components) {
        String name = componentName(model);
        if (components.containsKey(name)) {
            return;
        }
        Model read = MODELS_READ.computeIfAbsent(model, ModelSchemas::read);
        components.put(name, read.schema());
        read.references().forEach(reference -> collect(reference, components));
    }

    private static Model read(Class<?> model) {
        JsonObject properties = new JsonObject();
        List<Class<?>> references = new ArrayList<>();
        for (Field field : model.getDeclaredFields()) {
            SerializedName name = field.getAnnotation(SerializedName.class);
            if (name != null && !Modifier.isStatic(field.getModifiers())) {
                properties.add(name.value(), schemaOf(field.getGenericType(), references));
            }
        }
        JsonObject schema = new JsonObject();
        schema.addProperty("type", "object");
        schema.add("properties", properties);
        return new Model(schema, List.copyOf(references));
    }

    private static JsonObject schemaOf(Type type, List<Class<?>> references) {
        JsonObject schema = new JsonObject();
        if (type instanceof ParameterizedType parameterized && parameterized.getRawType() instanceof Class<?> raw) {
            Type[] arguments = parameterized.getActualTypeArguments();
            if (List.class.isAssignableFrom(raw)) {
                schema.addProperty("type", "array");
                schema.add("items", schemaOf(arguments[0], references));
                return schema;
            }
            if (Map.class.isAssignableFrom(raw)) {
                schema.addProperty("type", "object");
                schema.add("additionalProperties", schemaOf(arguments[1], references));
                return schema;
            }
        }
        if (!(type instanceof Class<?> cls) || cls == Object.class) {
            schema.addProperty("x-kubernetes-preserve-unknown-fields", true);
        } else if (cls == String.class || cls.isEnum()) {
            schema.addProperty("type", "string");
        } else if (cls == Integer.class || cls == Long.class) {
            schema.addProperty("type", "integer");
            schema.addProperty("format", cls == Integer.class ? "int32" : "int64");
        } else if (cls == Double.class || cls == Float.class || cls == BigDecimal.class) {
            schema.addProperty("type", "number");
        } else if (cls == Boolean.class) {
            schema.addProperty("type", "boolean");
        } else if (cls == OffsetDateTime.class) {
            schema.addProperty("type", "string");
            schema.addProperty("format", "date-time");
        } else if (cls == byte[].class) {
            schema.addProperty("type", "string");
            schema.addProperty("format", "byte");
        } else if (cls == IntOrString.class || cls == Quantity.class) {
            schema.addProperty("x-kubernetes-int-or-string", true);
        } else if (isModel(cls)) {
            references.add(cls);
            schema.addProperty("$ref", REF_PREFIX + componentName(cls));
        } else {
            schema.addProperty("x-kubernetes-preserve-unknown-fields", true);
        }
        return schema;
    }

    private static boolean isModel(Class<?> type) {
        try {
            return type.getName().startsWith(MODELS) && Modifier.isStatic(type.getField("openapiFields").getModifiers());
        } catch (NoSuchFieldException e) {
            return false;
        }
    }

    private record Model(JsonObject schema, List<Class<?>> references) {
    }
}
