package dev.watchkeeper.internal.json;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.TypeAdapter;
import com.google.gson.TypeAdapterFactory;
import com.google.gson.reflect.TypeToken;
import io.kubernetes.client.gson.V1MetadataExclusionStrategy;
import io.kubernetes.client.openapi.JSON;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.Collections;
import java.util.Date;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * A Gson that reads client-java's generated models ({@code io.kubernetes.client.openapi.models}) in one streaming
 * pass. The adapters the client registers for them parse each object into a JSON tree, check the tree (rejecting any
 * field the model does not know, which client-go ignores) and read the tree again, once per nested model; that costs
 * about a third of the decode time and most of its garbage. This Gson reads straight into the same models with the
 * client's own adapter classes for dates and bytes (in their default, RFC 3339 formats, which is what the API
 * server sends), times read by {@link Rfc3339Times} (the client's adapter for any form but the server's), and its
 * {@code managedFields} rule ({@code -Dkubernetes.client.includeManagedFields}); unknown fields are skipped, and
 * equal short strings are shared between objects ({@link SharedStrings}). Its adapters use only the public methods
 * of Gson's reader ({@link StringKeyMaps} reads maps), so a {@link ByteJsonReader} can feed them straight from an
 * object's bytes. It never asks the client's Gson for a model's adapter: that walks the client's 768 model
 * factories, loading every model class.
 *
 * <p>An application's own types (custom resources) are read with the client's Gson, in which the models they hold
 * ({@code metadata}, conditions, ...) are read by this one ({@link #around}): leniently and in the same pass.
 *
 * <p>It writes the models as the client's Gson does (the same fields, times in the client's microseconds), without
 * the client's tree per nested model: the reconcilers' request bodies are written with it.
 */
public final class ModelGson {

    private static final String MODELS = "io.kubernetes.client.openapi.models";
    private static final String INCLUDE_MANAGED_FIELDS = "kubernetes.client.includeManagedFields";

    private ModelGson() {
    }

    /** Whether {@code type} is one of the client's generated models. */
    static boolean covers(Class<?> type) {
        return MODELS.equals(type.getPackageName());
    }

    /** The one streaming Gson for the models, shared by every watcher (so are its strings). */
    static Gson gson() {
        return Holder.GSON;
    }

    /**
     * {@code client} (the client's Gson, with whatever the application registered on it) reading the client's models
     * with this Gson's adapters. One per client Gson.
     */
    public static Gson around(Gson client) {
        return Holder.AROUND.computeIfAbsent(client,
                gson -> gson.newBuilder().registerTypeAdapterFactory(MODEL_ADAPTERS).create());
    }

    /** The table of shared strings the Gson's string adapter uses, for readers that share strings too. */
    public static SharedStrings strings() {
        return Holder.STRINGS;
    }

    private static final class Holder {
        static final SharedStrings STRINGS = new SharedStrings();
        static final Gson GSON = create(STRINGS);
        static final Map<Gson, Gson> AROUND = Collections.synchronizedMap(new WeakHashMap<>());
    }

    /** This Gson's adapter for each of the client's models. */
    private static final TypeAdapterFactory MODEL_ADAPTERS = new TypeAdapterFactory() {
        @Override
        public <T> TypeAdapter<T> create(Gson gson, TypeToken<T> type) {
            return covers(type.getRawType()) ? gson().getAdapter(type) : null;
        }
    };

    private static Gson create(SharedStrings strings) {
        GsonBuilder builder = new GsonBuilder()
                .registerTypeAdapter(String.class, strings)
                .registerTypeAdapterFactory(new StringKeyMaps(strings))
                .registerTypeAdapter(OffsetDateTime.class, new Rfc3339Times())
                .registerTypeAdapter(LocalDate.class, new JSON.LocalDateTypeAdapter())
                .registerTypeAdapter(Date.class, new JSON.DateTypeAdapter())
                .registerTypeAdapter(java.sql.Date.class, new JSON.SqlDateTypeAdapter())
                .registerTypeAdapter(byte[].class, new JSON.ByteArrayAdapter());
        if (!Boolean.getBoolean(INCLUDE_MANAGED_FIELDS)) {
            builder.setExclusionStrategies(new V1MetadataExclusionStrategy());
        }
        return builder.create();
    }
}
