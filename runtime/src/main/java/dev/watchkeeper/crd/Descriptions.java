package dev.watchkeeper.crd;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

/**
 * The Javadoc of resource classes as schema descriptions, read from what the {@code watchkeeper-crd-processor}
 * annotation processor kept beside the classes at compile time
 * ({@code META-INF/watchkeeper/descriptions/<class>.properties}: the class under {@code .}, each field under its
 * name). A class compiled without the processor has no descriptions.
 */
final class Descriptions {

    private static final String LOCATION = "META-INF/watchkeeper/descriptions/";
    private static final String CLASS_KEY = ".";

    private final Map<Class<?>, Properties> byClass = new HashMap<>();

    /** The class's description, or {@code null}. */
    String of(Class<?> type) {
        return properties(type).getProperty(CLASS_KEY);
    }

    /** The field's description, or {@code null}. */
    String of(Field field) {
        return properties(field.getDeclaringClass()).getProperty(field.getName());
    }

    private Properties properties(Class<?> type) {
        return byClass.computeIfAbsent(type, Descriptions::read);
    }

    private static Properties read(Class<?> type) {
        Properties descriptions = new Properties();
        ClassLoader loader = type.getClassLoader();
        String resource = LOCATION + type.getName() + ".properties";
        try (InputStream in = loader == null ? null : loader.getResourceAsStream(resource)) {
            if (in != null) {
                descriptions.load(new InputStreamReader(in, StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
        return descriptions;
    }
}
