package dev.watchkeeper.test.conformance;

import static org.awaitility.Awaitility.await;

import com.google.gson.JsonObject;
import dev.watchkeeper.internal.resource.ResourceType;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** A namespaced custom resource (for the scenarios of other packages too) {@code <plural>.conformance.watchkeeper.dev/v1} with a status subresource. */
public final class CustomResources {

    static final String GROUP = "conformance.watchkeeper.dev";
    static final String VERSION = "v1";

    private final ApiClient client;
    private final String plural;
    private final String kind;

    public CustomResources(ApiClient client, String plural, String kind) {
        this.client = client;
        this.plural = plural;
        this.kind = kind;
    }

    public ResourceType<DynamicKubernetesObject> type() {
        return ResourceType.dynamic(GROUP, VERSION, plural, true);
    }

    public DynamicKubernetesApi api() {
        return new DynamicKubernetesApi(GROUP, VERSION, plural, client);
    }

    /**
     * Creates the CRD and returns once its resource can be listed. The CRD is sent as plain JSON: client-java's
     * {@code V1JSONSchemaProps} writes empty collections (e.g. {@code dependencies: {}}) that a real API server
     * rejects.
     */
    public void define() throws ApiException {
        Map<String, Object> preserve = Map.of("type", "object", "x-kubernetes-preserve-unknown-fields", true);
        Map<String, Object> crd = Map.of(
                "apiVersion", "apiextensions.k8s.io/v1", "kind", "CustomResourceDefinition",
                "metadata", Map.of("name", plural + "." + GROUP),
                "spec", Map.of("group", GROUP, "scope", "Namespaced",
                        "names", Map.of("plural", plural, "kind", kind, "singular", kind.toLowerCase(Locale.ROOT),
                                "listKind", kind + "List"),
                        "versions", List.of(Map.of("name", VERSION, "served", true, "storage", true,
                                "subresources", Map.of("status", Map.of()),
                                "schema", Map.of("openAPIV3Schema", Map.of("type", "object",
                                        "properties", Map.of("spec", preserve, "status", preserve)))))));
        definitions().create(new DynamicKubernetesObject(json(crd))).throwsApiException();
        await().atMost(Duration.ofSeconds(30)).until(() -> api().list().isSuccess());
    }

    /** {@link #define}, unless an earlier run on the same server defined it already (409). */
    public void defineUnlessDefined() throws ApiException {
        try {
            define();
        } catch (ApiException e) {
            if (e.getCode() != 409) {
                throw e;
            }
        }
    }

    private DynamicKubernetesApi definitions() {
        return new DynamicKubernetesApi("apiextensions.k8s.io", "v1", "customresourcedefinitions", client);
    }

    public void undefine() throws ApiException {
        definitions().delete(plural + "." + GROUP).throwsApiException();
    }

    public DynamicKubernetesObject object(String namespace, String name, Map<String, Object> spec) {
        JsonObject raw = new JsonObject();
        raw.addProperty("apiVersion", GROUP + "/" + VERSION);
        raw.addProperty("kind", kind);
        JsonObject metadata = new JsonObject();
        metadata.addProperty("namespace", namespace);
        metadata.addProperty("name", name);
        raw.add("metadata", metadata);
        raw.add("spec", json(spec));
        return new DynamicKubernetesObject(raw);
    }

    public JsonObject json(Map<String, Object> value) {
        return JSON.getGson().toJsonTree(value).getAsJsonObject();
    }
}
