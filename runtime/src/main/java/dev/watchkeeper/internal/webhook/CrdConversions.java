package dev.watchkeeper.internal.webhook;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.watchkeeper.crd.CustomResourceDefinitions;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.ApiextensionsV1WebhookClientConfig;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.kubernetes.client.util.generic.options.PatchOptions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Points the CRD of each multi-version resource at the application's conversion webhook, trusting its CA bundle:
 * server-side apply of {@code spec.conversion} alone, field manager {@value #FIELD_MANAGER}, forced, so the schema
 * stays whoever applied it. When the starter applies the CRDs itself ({@code watchkeeper.crds.apply}, the same field
 * manager) it applies the whole definition instead: a manager's apply that leaves out fields it applied before
 * removes them. A CRD that does not exist is an error, not created half.
 */
public final class CrdConversions {

    /** The field manager of the starter's CRD writes. */
    public static final String FIELD_MANAGER = "watchkeeper";

    private final WebhookClientConfig client;
    private final boolean wholeDefinition;

    /**
     * @param wholeDefinition apply the whole generated CRD, for when the starter applies the CRDs as
     *                        {@value #FIELD_MANAGER} already
     */
    public CrdConversions(WebhookClientConfig client, boolean wholeDefinition) {
        this.client = client;
        this.wholeDefinition = wholeDefinition;
    }

    /** Applies the conversion of each resource's CRD with {@code caBundle}; returns the CRDs' names. */
    public List<String> apply(ApiClient apiClient, List<ResourceVersions> resources, byte[] caBundle)
            throws ApiException {
        DynamicKubernetesApi definitions = definitions(apiClient);
        List<String> names = new ArrayList<>();
        ApiextensionsV1WebhookClientConfig conversion = client.conversion(caBundle);
        for (ResourceVersions resource : resources) {
            String name = resource.crdName();
            if (!releaseOtherAddress(definitions, name, conversion)) {
                throw new IllegalStateException("the CRD " + name + " does not exist, so its conversion cannot be"
                        + " registered: apply it first (CustomResourceDefinitions generates it), or set"
                        + " watchkeeper.crds.apply=true");
            }
            Map<String, Object> definition = CustomResourceDefinitions.definition(resource.hub(), conversion);
            apply(definitions, name, wholeDefinition ? definition : conversionOnly(definition));
            names.add(name);
        }
        return names;
    }

    /**
     * Replaces the CRD's conversion client config with {@code desired} when it names a URL where {@code desired}
     * names a Service, or the other way round: set by another field manager (say {@code kubectl apply} of a manifest
     * with the Service, and the application run from outside the cluster), the old one would stay beside the applied
     * one, which the API server refuses; and removing it alone would leave a conversion with neither.
     *
     * @return whether the CRD exists
     */
    public static boolean releaseOtherAddress(DynamicKubernetesApi definitions, String name,
            ApiextensionsV1WebhookClientConfig desired) throws ApiException {
        KubernetesApiResponse<DynamicKubernetesObject> live = definitions.get(name);
        if (live.getHttpStatusCode() == 404) {
            return false;
        }
        JsonObject crd = live.throwsApiException().getObject().getRaw();
        JsonObject clientConfig = object(object(object(object(crd, "spec"), "conversion"), "webhook"), "clientConfig");
        String other = desired.getUrl() != null ? "service" : "url";
        if (clientConfig != null && clientConfig.has(other)) {
            JsonObject replace = new JsonObject();
            replace.addProperty("op", "replace");
            replace.addProperty("path", "/spec/conversion/webhook/clientConfig");
            replace.add("value", JSON.getGson().toJsonTree(desired));
            JsonArray patch = new JsonArray();
            patch.add(replace);
            PatchOptions options = new PatchOptions();
            options.setFieldManager(FIELD_MANAGER);
            definitions.patch(name, V1Patch.PATCH_FORMAT_JSON_PATCH, new V1Patch(patch.toString()), options)
                    .throwsApiException();
        }
        return true;
    }

    private static void apply(DynamicKubernetesApi definitions, String name, Map<String, Object> body) {
        PatchOptions options = new PatchOptions();
        options.setFieldManager(FIELD_MANAGER);
        options.setForce(true);
        KubernetesApiResponse<DynamicKubernetesObject> applied = definitions.patch(name,
                V1Patch.PATCH_FORMAT_APPLY_YAML, new V1Patch(JSON.getGson().toJson(body)), options);
        if (!applied.isSuccess()) {
            String message = applied.getStatus() != null && applied.getStatus().getMessage() != null
                    ? applied.getStatus().getMessage() : "no message";
            throw new IllegalStateException("registering the conversion webhook in the CRD " + name + " failed with"
                    + " HTTP " + applied.getHttpStatusCode() + ": " + message + (applied.getHttpStatusCode() == 403
                    ? "; the application needs get and patch on customresourcedefinitions (apiextensions.k8s.io)"
                    : ""));
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> conversionOnly(Map<String, Object> definition) {
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("conversion", ((Map<String, Object>) definition.get("spec")).get("conversion"));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("apiVersion", definition.get("apiVersion"));
        body.put("kind", definition.get("kind"));
        body.put("metadata", definition.get("metadata"));
        body.put("spec", spec);
        return body;
    }

    static DynamicKubernetesApi definitions(ApiClient client) {
        return new DynamicKubernetesApi("apiextensions.k8s.io", "v1", "customresourcedefinitions", client);
    }

    private static JsonObject object(JsonObject parent, String member) {
        if (parent == null) {
            return null;
        }
        JsonElement value = parent.get(member);
        return value != null && value.isJsonObject() ? value.getAsJsonObject() : null;
    }
}
