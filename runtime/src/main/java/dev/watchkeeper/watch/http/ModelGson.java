package dev.watchkeeper.watch.http;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import io.kubernetes.client.gson.V1MetadataExclusionStrategy;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.Date;

/**
 * A Gson that reads client-java's generated models ({@code io.kubernetes.client.openapi.models}) in one streaming
 * pass. The adapters the client registers for them parse each object into a JSON tree, check the tree (rejecting any
 * field the model does not know, which client-go ignores) and read the tree again, once per nested model; that costs
 * about a third of the decode time and most of its garbage. This Gson reads straight into the same models with the
 * client's own adapters for times, dates and bytes and its {@code managedFields} rule
 * ({@code -Dkubernetes.client.includeManagedFields}); unknown fields are skipped, and equal short strings are
 * shared between objects ({@link SharedStrings}). Other types keep the client's Gson.
 */
final class ModelGson {

    private static final String MODELS = "io.kubernetes.client.openapi.models";
    private static final String INCLUDE_MANAGED_FIELDS = "kubernetes.client.includeManagedFields";

    private ModelGson() {
    }

    /** Whether {@code type} is one of the client's generated models. */
    static boolean covers(Class<?> type) {
        return MODELS.equals(type.getPackageName());
    }

    /** A streaming Gson for the models, with {@code client}'s value adapters (so its formats apply). */
    static Gson of(Gson client) {
        GsonBuilder builder = new GsonBuilder()
                .registerTypeAdapter(String.class, new SharedStrings())
                .registerTypeAdapter(OffsetDateTime.class, client.getAdapter(OffsetDateTime.class))
                .registerTypeAdapter(LocalDate.class, client.getAdapter(LocalDate.class))
                .registerTypeAdapter(Date.class, client.getAdapter(Date.class))
                .registerTypeAdapter(java.sql.Date.class, client.getAdapter(java.sql.Date.class))
                .registerTypeAdapter(byte[].class, client.getAdapter(byte[].class));
        if (!Boolean.getBoolean(INCLUDE_MANAGED_FIELDS)) {
            builder.setExclusionStrategies(new V1MetadataExclusionStrategy());
        }
        return builder.create();
    }
}
