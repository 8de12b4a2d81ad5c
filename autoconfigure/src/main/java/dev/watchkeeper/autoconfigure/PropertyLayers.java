package dev.watchkeeper.autoconfigure;

import dev.watchkeeper.internal.settings.InvalidSettingException;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.springframework.boot.context.properties.bind.DataObjectPropertyName;

/**
 * Where the fields of one runtime settings value come from: property records, most specific first, each under its
 * prefix. A field comes from the first record that sets the component of that name, which is how the values are
 * picked too (an override, else the global value). So when the core refuses a value it names the field, and this
 * one mapping names the property: field {@code maxInterval} set by the record under
 * {@code watchkeeper.watchers.cms.backoff} is {@code watchkeeper.watchers.cms.backoff.max-interval}.
 *
 * <pre>{@code
 * BackOffSettings settings = PropertyLayers.of("watchkeeper.backoff", global)
 *         .over("watchkeeper.watchers.cms.backoff", overrides)
 *         .build(() -> new BackOffSettings(...));
 * }</pre>
 *
 * @param layers most specific first
 */
record PropertyLayers(List<Layer> layers) {

    /** Property values bound under {@code prefix}; {@code values} is {@code null} when nothing is set there. */
    record Layer(String prefix, Record values) {
    }

    static PropertyLayers of(String prefix, Record values) {
        return new PropertyLayers(List.of(new Layer(prefix, values)));
    }

    /** These layers under a more specific one. */
    PropertyLayers over(String prefix, Record values) {
        List<Layer> more = new ArrayList<>();
        more.add(new Layer(prefix, values));
        more.addAll(layers);
        return new PropertyLayers(List.copyOf(more));
    }

    /**
     * The settings {@code settings} makes, or a {@link WatchkeeperPropertyException} naming the property of the field
     * the core refused. A field no layer sets (the annotation's concurrency, say) keeps the core's exception.
     */
    <T> T build(Supplier<T> settings) {
        try {
            return settings.get();
        } catch (InvalidSettingException refused) {
            String property = property(refused.field());
            if (property == null) {
                throw refused;
            }
            throw WatchkeeperPropertyException.invalid(property, refused.value(), refused.rule());
        }
    }

    /** The property that set {@code field}, or {@code null}. */
    String property(String field) {
        for (Layer layer : layers) {
            if (layer.values() != null && sets(layer.values(), field)) {
                return layer.prefix() + "." + DataObjectPropertyName.toDashedForm(field);
            }
        }
        return null;
    }

    /** {@code watchkeeper.watchers.cms}, or {@code watchkeeper.watchers[configmaps@default]} for other characters. */
    static String entry(String map, String key) {
        return key.matches("[a-z0-9-]+") ? map + "." + key : map + "[" + key + "]";
    }

    private static boolean sets(Record values, String field) {
        for (RecordComponent component : values.getClass().getRecordComponents()) {
            if (component.getName().equals(field)) {
                try {
                    return component.getAccessor().invoke(values) != null;
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException("cannot read " + field + " of " + values, e);
                }
            }
        }
        return false;
    }
}
