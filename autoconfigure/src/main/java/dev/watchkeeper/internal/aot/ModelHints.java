package dev.watchkeeper.internal.aot;

import com.google.gson.annotations.JsonAdapter;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.HashSet;
import java.util.Set;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.core.ResolvableType;

/**
 * Reflection hints for a model class Gson reads and writes: its fields, constructors and accessors, those of every
 * type its fields hold (lists and maps included), client-java's {@code CustomTypeAdapterFactory} inner classes,
 * which look the model's own adapter up reflectively, and the adapters a {@code @JsonAdapter} names.
 */
final class ModelHints {

    private static final MemberCategory[] MODEL = {MemberCategory.ACCESS_DECLARED_FIELDS,
            MemberCategory.INVOKE_DECLARED_CONSTRUCTORS, MemberCategory.INVOKE_PUBLIC_METHODS};

    private ModelHints() {
    }

    static void register(RuntimeHints hints, Class<?> model) {
        register(hints, model, new HashSet<>());
    }

    private static void register(RuntimeHints hints, Class<?> type, Set<Class<?>> seen) {
        if (type == null || type.isPrimitive() || type.isArray() && type.getComponentType().isPrimitive()
                || type.getName().startsWith("java.") || !seen.add(type)) {
            return;
        }
        if (type.isArray()) {
            register(hints, type.getComponentType(), seen);
            return;
        }
        hints.reflection().registerType(type, MODEL);
        JsonAdapter adapter = type.getAnnotation(JsonAdapter.class);
        if (adapter != null) { // Quantity, IntOrString: Gson makes the adapter the annotation names
            hints.reflection().registerType(adapter.value(), MemberCategory.INVOKE_DECLARED_CONSTRUCTORS);
        }
        for (Class<?> nested : type.getDeclaredClasses()) {
            if (nested.getSimpleName().equals("CustomTypeAdapterFactory")) {
                hints.reflection().registerType(nested, MemberCategory.INVOKE_DECLARED_CONSTRUCTORS);
            }
        }
        for (Field field : type.getDeclaredFields()) {
            if (!Modifier.isStatic(field.getModifiers())) {
                registerAll(hints, ResolvableType.forField(field), seen);
            }
        }
        register(hints, type.getSuperclass(), seen);
    }

    private static void registerAll(RuntimeHints hints, ResolvableType type, Set<Class<?>> seen) {
        register(hints, type.resolve(), seen);
        for (ResolvableType generic : type.getGenerics()) {
            registerAll(hints, generic, seen);
        }
    }
}
