package dev.watchkeeper.autoconfigure;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.springframework.boot.context.properties.bind.DataObjectPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;

/**
 * The keys {@link WatchkeeperProperties} and {@link WebhookProperties} bind, read from their records (a map entry is
 * one element, {@code *} here), and the check that the application's configuration sets no other key under
 * {@code watchkeeper.}: Boot would ignore a misspelt {@code watchkeeper.backof.max-interval}, so start-up fails
 * naming the nearest known key.
 * Environment variables and system properties are not checked: other tools use {@code WATCHKEEPER_*} variables and
 * {@code watchkeeper.*} system properties for their own ends.
 *
 * <pre>{@code
 * PropertyKeys.checkKnown(environment);
 * }</pre>
 */
final class PropertyKeys {

    private static final ConfigurationPropertyName ROOT = ConfigurationPropertyName.of("watchkeeper");
    private static final String ANY = "*";

    /** Every key, as elements in dashed form, {@code *} for a map entry's name. */
    static final List<List<String>> KNOWN = Stream.concat(
            keys(WatchkeeperProperties.class, List.of("watchkeeper")).stream(),
            keys(WebhookProperties.class, List.of("watchkeeper", "webhooks")).stream()).toList();

    private PropertyKeys() {
    }

    /** A key under {@code watchkeeper.} as the application's configuration writes it, with its value. */
    record Written(String key, ConfigurationPropertyName name, Object value) {
    }

    /** Fails on the first key under {@code watchkeeper.} that binds to nothing. */
    static void checkKnown(ConfigurableEnvironment environment) {
        for (Written written : written(environment)) {
            if (KNOWN.stream().noneMatch(known -> matches(known, written.name()))) {
                throw WatchkeeperPropertyException.unknown(written.key(), written.value(), nearest(written.name()));
            }
        }
    }

    /**
     * Every key under {@code watchkeeper.} in the application's configuration, most important source first;
     * {@link ConfigurationPropertyName#adapt} is how Boot reads them too, so {@code configmaps@default} is
     * {@code configmapsdefault} here as in the bound map.
     */
    static List<Written> written(ConfigurableEnvironment environment) {
        List<Written> written = new ArrayList<>();
        for (PropertySource<?> source : environment.getPropertySources()) {
            if (source instanceof EnumerablePropertySource<?> enumerable && !sharedWithOtherTools(source)) {
                for (String key : enumerable.getPropertyNames()) {
                    ConfigurationPropertyName name = ConfigurationPropertyName.adapt(key, '.');
                    if (ROOT.isAncestorOf(name)) {
                        written.add(new Written(key, name, source.getProperty(key)));
                    }
                }
            }
        }
        return written;
    }

    /** The known key closest to {@code name} in edit distance, with {@code name}'s entry names filled in. */
    static String nearest(ConfigurationPropertyName name) {
        String written = name.toString();
        return KNOWN.stream().map(known -> fill(known, name))
                .min(Comparator.comparingInt(candidate -> distance(written, candidate))).orElseThrow();
    }

    private static boolean sharedWithOtherTools(PropertySource<?> source) {
        return source.getName().equals(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME)
                || source.getName().equals(StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME);
    }

    /** Same elements, in relaxed form; indices after a key are a collection's elements ({@code namespaces[0]}). */
    private static boolean matches(List<String> known, ConfigurationPropertyName name) {
        if (name.getNumberOfElements() < known.size()) {
            return false;
        }
        for (int i = 0; i < name.getNumberOfElements(); i++) {
            if (i >= known.size()) {
                if (!name.isNumericIndex(i)) {
                    return false;
                }
            } else if (!known.get(i).equals(ANY)
                    && !known.get(i).replace("-", "").equals(name.getElement(i, Form.UNIFORM))) {
                return false;
            }
        }
        return true;
    }

    private static String fill(List<String> known, ConfigurationPropertyName name) {
        StringBuilder key = new StringBuilder();
        for (int i = 0; i < known.size(); i++) {
            String element = known.get(i);
            if (element.equals(ANY)) {
                String entry = i < name.getNumberOfElements() ? name.getElement(i, Form.ORIGINAL) : "<name>";
                key.replace(0, key.length(), PropertyLayers.entry(key.toString(), entry));
            } else {
                key.append(i == 0 ? "" : ".").append(element);
            }
        }
        return key.toString();
    }

    private static List<List<String>> keys(Class<?> type, List<String> prefix) {
        List<List<String>> keys = new ArrayList<>();
        for (RecordComponent component : type.getRecordComponents()) {
            List<String> key = new ArrayList<>(prefix);
            key.add(DataObjectPropertyName.toDashedForm(component.getName()));
            Class<?> valueType = component.getType();
            if (Map.class.isAssignableFrom(valueType)) {
                key.add(ANY);
                valueType = (Class<?>) ((ParameterizedType) component.getGenericType()).getActualTypeArguments()[1];
            }
            if (valueType.isRecord()) {
                keys.addAll(keys(valueType, key));
            } else {
                keys.add(List.copyOf(key));
            }
        }
        return List.copyOf(keys);
    }

    /** Levenshtein distance. */
    private static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
