package dev.watchkeeper.crd;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.annotations.SerializedName;
import dev.watchkeeper.annotation.Default;
import dev.watchkeeper.annotation.ListType;
import dev.watchkeeper.annotation.PreserveUnknownFields;
import dev.watchkeeper.annotation.ValidationRule;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.custom.IntOrString;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.lang.annotation.Annotation;
import java.lang.reflect.AnnotatedArrayType;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.AnnotatedParameterizedType;
import java.lang.reflect.AnnotatedType;
import java.lang.reflect.AnnotatedWildcardType;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The structural OpenAPI v3 schema of a Java class, as Gson writes its objects: the non-static, non-transient fields
 * of the class and its superclasses, each named by its {@code @SerializedName} or else its own name. Every node has a
 * {@code type} unless it is int-or-string or preserves unknown fields, no node carries an empty collection, and a
 * class that contains itself is refused (a structural schema cannot recurse).
 */
final class SchemaGenerator {

    private final Deque<Class<?>> enclosing = new ArrayDeque<>();
    private final Descriptions descriptions = new Descriptions();

    /** The schema of a resource's root: {@code metadata} is an object the API server describes itself. */
    Map<String, Object> root(Class<?> resource) {
        return object(resource, true);
    }

    private Map<String, Object> object(Class<?> type, boolean root) {
        if (enclosing.contains(type)) {
            throw new IllegalArgumentException(type.getName() + " contains itself (through " + path()
                    + "): a CRD's structural schema cannot describe a recursive type");
        }
        enclosing.push(type);
        Map<String, Object> properties = new LinkedHashMap<>();
        List<String> required = new ArrayList<>();
        for (Field field : fields(type)) {
            String name = name(field);
            Map<String, Object> schema = root && field.getType() == V1ObjectMeta.class
                    ? typed("object") : field(field);
            properties.put(name, schema);
            if (Constraints.required(field)) {
                required.add(name);
            }
        }
        enclosing.pop();
        Map<String, Object> schema = described(typed("object"), descriptions.of(type));
        if (!properties.isEmpty()) {
            schema.put("properties", properties);
        }
        if (!required.isEmpty()) {
            schema.put("required", required);
        }
        if (type.isAnnotationPresent(PreserveUnknownFields.class)) {
            schema.put("x-kubernetes-preserve-unknown-fields", true);
        }
        rules(type, schema);
        return schema;
    }

    private Map<String, Object> field(Field field) {
        String where = field.getType().getName() + " " + field.getName();
        Map<String, Object> schema = schema(field.getAnnotatedType(), where);
        String description = descriptions.of(field);
        if (description != null) {
            schema = described(schema, description);
        }
        Constraints.apply(field, schema, where);
        if (!isClientModel(field.getDeclaringClass()) && (nullable(field) || nullable(field.getAnnotatedType()))) {
            schema.put("nullable", true);
        }
        Default value = field.getAnnotation(Default.class);
        if (value != null) {
            schema.put("default", Defaults.parse(value.value(), schema, where));
        }
        if (field.isAnnotationPresent(PreserveUnknownFields.class)) {
            if (schema.containsKey("type") && !"object".equals(schema.get("type"))) {
                throw new IllegalArgumentException("@PreserveUnknownFields on " + field + ", which is no object");
            }
            schema.put("x-kubernetes-preserve-unknown-fields", true);
        }
        ListType listType = field.getAnnotation(ListType.class);
        if (listType != null) {
            if (!"array".equals(schema.get("type"))) {
                throw new IllegalArgumentException("@ListType on " + field + ", which is not a list");
            }
            schema.put("x-kubernetes-list-type", listType.value().name().toLowerCase(Locale.ROOT));
            if (listType.value() == ListType.Kind.MAP) {
                if (listType.keys().length == 0) {
                    throw new IllegalArgumentException("@ListType(MAP) on " + field + " needs keys");
                }
                schema.put("x-kubernetes-list-map-keys", List.of(listType.keys()));
            }
        }
        rules(field, schema);
        return schema;
    }

    /**
     * The schema of a type as written at {@code where}; the constraints annotating a list's items or a map's values
     * ({@code List<@Size(max = 63) String>}) hold for each of them.
     */
    private Map<String, Object> schema(AnnotatedType annotated, String where) {
        Type type = annotated.getType();
        Class<?> raw = raw(type, where);
        if (raw == String.class || raw == Character.class || raw == char.class) {
            return typed("string");
        }
        if (raw == int.class || raw == Integer.class) {
            return typed("integer", "int32");
        }
        if (raw == long.class || raw == Long.class) {
            return typed("integer", "int64");
        }
        if (raw == short.class || raw == Short.class || raw == byte.class || raw == Byte.class
                || raw == BigInteger.class) {
            return typed("integer");
        }
        if (raw == float.class || raw == Float.class) {
            return typed("number", "float");
        }
        if (raw == double.class || raw == Double.class) {
            return typed("number", "double");
        }
        if (raw == BigDecimal.class) {
            return typed("number");
        }
        if (raw == boolean.class || raw == Boolean.class) {
            return typed("boolean");
        }
        if (raw == byte[].class) {
            return typed("string", "byte");
        }
        if (raw == OffsetDateTime.class || raw == Instant.class || raw == ZonedDateTime.class) {
            return typed("string", "date-time");
        }
        if (raw == LocalDate.class) {
            return typed("string", "date");
        }
        if (raw == IntOrString.class || raw == Quantity.class) {
            return flag("x-kubernetes-int-or-string");
        }
        if (raw == Object.class || raw == JsonElement.class) {
            return flag("x-kubernetes-preserve-unknown-fields");
        }
        if (raw == JsonObject.class) {
            Map<String, Object> schema = typed("object");
            schema.put("x-kubernetes-preserve-unknown-fields", true);
            return schema;
        }
        if (raw.isEnum()) {
            Map<String, Object> schema = typed("string");
            schema.put("enum", constants(raw));
            return schema;
        }
        if (raw.isArray() || Collection.class.isAssignableFrom(raw)) {
            Map<String, Object> schema = typed("array");
            schema.put("items", element(annotated, where + "[]"));
            return schema;
        }
        if (Map.class.isAssignableFrom(raw)) {
            return map(annotated, where);
        }
        if (KubernetesObject.class.isAssignableFrom(raw)) {
            // its own schema is the API server's to know: kept whole, apiVersion, kind and metadata checked
            Map<String, Object> schema = typed("object");
            schema.put("x-kubernetes-embedded-resource", true);
            schema.put("x-kubernetes-preserve-unknown-fields", true);
            return schema;
        }
        if (raw.isPrimitive() || raw.isInterface() || Modifier.isAbstract(raw.getModifiers())) {
            throw new IllegalArgumentException(where + ": no schema for " + raw.getName());
        }
        return object(raw, false);
    }

    private Map<String, Object> map(AnnotatedType annotated, String where) {
        if (!(annotated instanceof AnnotatedParameterizedType parameterized)) {
            throw new IllegalArgumentException(where + ": a map needs its key and value types");
        }
        AnnotatedType[] arguments = parameterized.getAnnotatedActualTypeArguments();
        if (raw(arguments[0].getType(), where) != String.class) {
            throw new IllegalArgumentException(where + ": a map's keys must be strings in JSON");
        }
        Map<String, Object> schema = typed("object");
        if (raw(arguments[1].getType(), where) == Object.class) {
            schema.put("x-kubernetes-preserve-unknown-fields", true);
        } else {
            schema.put("additionalProperties", argument(arguments[1], where + "{}"));
        }
        return schema;
    }

    /**
     * A list's items: an array's component (whose annotations, by Java's rules, are the array field's own), or a
     * collection's type argument with its constraints.
     */
    private Map<String, Object> element(AnnotatedType annotated, String where) {
        if (annotated instanceof AnnotatedArrayType array) {
            return schema(array.getAnnotatedGenericComponentType(), where);
        }
        if (annotated instanceof AnnotatedParameterizedType parameterized) {
            return argument(parameterized.getAnnotatedActualTypeArguments()[0], where);
        }
        throw new IllegalArgumentException(where + ": a collection needs its element type");
    }

    private Map<String, Object> argument(AnnotatedType argument, String where) {
        AnnotatedType bound = argument instanceof AnnotatedWildcardType wildcard
                ? wildcard.getAnnotatedUpperBounds()[0] : argument;
        Map<String, Object> schema = schema(bound, where);
        Constraints.apply(argument, schema, where);
        if (nullable(argument)) {
            schema.put("nullable", true);
        }
        return schema;
    }

    private static boolean isClientModel(Class<?> type) {
        return type.getName().startsWith("io.kubernetes.client.");
    }

    /**
     * Any annotation named {@code Nullable} (JSpecify's, Spring's, JSR 305's) lets the field be {@code null}; on
     * client-java's models it marks an optional field, which Kubernetes' own schema does not make nullable.
     */
    private static boolean nullable(AnnotatedElement element) {
        for (Annotation annotation : element.getAnnotations()) {
            if (annotation.annotationType().getSimpleName().equals("Nullable")) {
                return true;
            }
        }
        return false;
    }

    private static Class<?> raw(Type type, String where) {
        if (type instanceof Class<?> plain) {
            return plain;
        }
        if (type instanceof ParameterizedType parameterized) {
            return (Class<?>) parameterized.getRawType();
        }
        if (type instanceof GenericArrayType) {
            return Object[].class;
        }
        if (type instanceof WildcardType wildcard) {
            return raw(wildcard.getUpperBounds()[0], where);
        }
        throw new IllegalArgumentException(where + ": no schema for the type variable " + type);
    }

    private static void rules(AnnotatedElement element, Map<String, Object> schema) {
        ValidationRule[] rules = element.getAnnotationsByType(ValidationRule.class);
        if (rules.length == 0) {
            return;
        }
        List<Map<String, Object>> validations = new ArrayList<>();
        for (ValidationRule rule : rules) {
            Map<String, Object> validation = new LinkedHashMap<>();
            validation.put("rule", rule.value());
            if (!rule.message().isEmpty()) {
                validation.put("message", rule.message());
            }
            validations.add(validation);
        }
        schema.put("x-kubernetes-validations", validations);
    }

    /** What Gson writes: instance fields of the class and its superclasses, superclass first. */
    private static List<Field> fields(Class<?> type) {
        List<Class<?>> hierarchy = new ArrayList<>();
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            hierarchy.add(0, c);
        }
        List<Field> fields = new ArrayList<>();
        for (Class<?> c : hierarchy) {
            for (Field field : c.getDeclaredFields()) {
                int modifiers = field.getModifiers();
                if (!Modifier.isStatic(modifiers) && !Modifier.isTransient(modifiers) && !field.isSynthetic()) {
                    fields.add(field);
                }
            }
        }
        return fields;
    }

    private static String name(Field field) {
        SerializedName serialized = field.getAnnotation(SerializedName.class);
        return serialized != null ? serialized.value() : field.getName();
    }

    private static List<String> constants(Class<?> type) {
        List<String> values = new ArrayList<>();
        for (Object constant : type.getEnumConstants()) {
            String name = ((Enum<?>) constant).name();
            try {
                SerializedName serialized = type.getField(name).getAnnotation(SerializedName.class);
                values.add(serialized != null ? serialized.value() : name);
            } catch (NoSuchFieldException impossible) {
                throw new IllegalStateException(impossible);
            }
        }
        return values;
    }

    private String path() {
        List<String> names = new ArrayList<>();
        enclosing.descendingIterator().forEachRemaining(c -> names.add(c.getSimpleName()));
        return String.join(" > ", names);
    }

    private static Map<String, Object> typed(String type) {
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("type", type);
        return schema;
    }

    private static Map<String, Object> typed(String type, String format) {
        Map<String, Object> schema = typed(type);
        schema.put("format", format);
        return schema;
    }

    /** {@code schema} with {@code description} first, as CRDs written by hand put it; unchanged if there is none. */
    private static Map<String, Object> described(Map<String, Object> schema, String description) {
        if (description == null) {
            return schema;
        }
        Map<String, Object> described = new LinkedHashMap<>();
        described.put("description", description);
        schema.remove("description");
        described.putAll(schema);
        return described;
    }

    private static Map<String, Object> flag(String extension) {
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put(extension, true);
        return schema;
    }
}
