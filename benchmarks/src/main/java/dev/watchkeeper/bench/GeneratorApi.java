package dev.watchkeeper.bench;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.Pair;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import okhttp3.Call;

/**
 * The sample's {@code ConfigMapGenerator} resources and their ConfigMaps as plain JSON through client-java's
 * {@code ApiClient} (no models, no framework): what the end-to-end scenario's harness and its floor send.
 * The names below are the sample's ({@code ConfigMapGeneratorReconciler}); {@link EndToEnd} checks at run time
 * that the floor's objects come out as the reconciler's do, so a rename there fails the run instead of skewing it.
 */
final class GeneratorApi {

    static final String GROUP = "samples.watchkeeper.dev";
    static final String API_VERSION = GROUP + "/v1";
    static final String KIND = "ConfigMapGenerator";
    static final String PLURAL = "configmapgenerators";
    /** The reconciler's name, which is its field manager. */
    static final String RECONCILER = "configmap-generator";
    static final String FINALIZER = GROUP + "/cleanup";
    static final String GENERATION_ANNOTATION = GROUP + "/generation";
    static final String GENERATOR_LABEL = GROUP + "/generator";
    /** ConfigMaps per generator. */
    static final int REPLICAS = 2;

    private final ApiClient client;

    GeneratorApi(ApiClient client) {
        this.client = client;
    }

    ApiClient client() {
        return client;
    }

    static String generatorsPath(String namespace) {
        return "/apis/" + API_VERSION + "/namespaces/" + namespace + "/" + PLURAL;
    }

    static String configMapsPath(String namespace) {
        return "/api/v1/namespaces/" + namespace + "/configmaps";
    }

    /** The name of a generator's {@code i}th ConfigMap (its name is the prefix). */
    static String configMapName(String generator, int i) {
        return generator + "-" + i;
    }

    /** Creates the namespace and {@code count} generators {@code g-00000…} asking for 2 ConfigMaps of {@code v1}. */
    void createGenerators(String namespace, int count, int threads) throws Exception {
        JsonObject ns = new JsonObject();
        ns.addProperty("apiVersion", "v1");
        ns.addProperty("kind", "Namespace");
        ns.add("metadata", metadata(namespace, null));
        send("POST", "/api/v1/namespaces", List.of(), ns, "application/json");
        forEach(names(count), threads, name -> {
            JsonObject generator = new JsonObject();
            generator.addProperty("apiVersion", API_VERSION);
            generator.addProperty("kind", KIND);
            generator.add("metadata", metadata(name, namespace));
            JsonObject spec = new JsonObject();
            spec.addProperty("replicas", REPLICAS);
            spec.add("content", content("v1"));
            generator.add("spec", spec);
            send("POST", generatorsPath(namespace), List.of(), generator, "application/json");
        });
    }

    /** A user's spec change: {@code spec.content.greeting} becomes {@code value}; returns the stored generator. */
    JsonObject changeSpec(String namespace, String name, String value) throws ApiException {
        JsonObject spec = new JsonObject();
        spec.add("content", content(value));
        JsonObject patch = new JsonObject();
        patch.add("spec", spec);
        return send("PATCH", generatorsPath(namespace) + "/" + name, List.of(), patch,
                "application/merge-patch+json").getAsJsonObject();
    }

    /** Every generator of the namespace as stored. */
    List<JsonObject> listGenerators(String namespace) throws ApiException {
        List<JsonObject> items = new ArrayList<>();
        send("GET", generatorsPath(namespace), List.of(), null, "application/json").getAsJsonObject()
                .getAsJsonArray("items").forEach(item -> items.add(item.getAsJsonObject()));
        return items;
    }

    JsonObject get(String path) throws ApiException {
        return send("GET", path, List.of(), null, "application/json").getAsJsonObject();
    }

    /** One request; the answer's JSON. */
    JsonElement send(String method, String path, List<Pair> query, Object body, String contentType)
            throws ApiException {
        Map<String, String> headers = new HashMap<>();
        headers.put("Accept", "application/json");
        headers.put("Content-Type", contentType);
        Call call = client.buildCall(null, path, method, query, List.of(), body, headers, Map.of(), Map.of(),
                new String[] {"BearerToken"}, null);
        return client.<JsonElement>execute(call, JsonElement.class).getData();
    }

    static List<String> names(int count) {
        List<String> names = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            names.add(String.format("g-%05d", i));
        }
        return names;
    }

    static JsonObject content(String value) {
        JsonObject content = new JsonObject();
        content.addProperty("greeting", value);
        return content;
    }

    static JsonObject metadata(String name, String namespace) {
        JsonObject metadata = new JsonObject();
        metadata.addProperty("name", name);
        if (namespace != null) {
            metadata.addProperty("namespace", namespace);
        }
        return metadata;
    }

    static long generation(JsonObject object) {
        return object.getAsJsonObject("metadata").get("generation").getAsLong();
    }

    static JsonArray array(String... values) {
        JsonArray array = new JsonArray();
        for (String value : values) {
            array.add(value);
        }
        return array;
    }

    /** A request per item on {@code threads} threads; the first failure is thrown. */
    static <T> void forEach(List<T> items, int threads, Each<T> each) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (T item : items) {
                futures.add(pool.submit(() -> {
                    each.accept(item);
                    return null;
                }));
            }
            for (Future<?> future : futures) {
                future.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** One item's requests. */
    interface Each<T> {
        void accept(T item) throws Exception;
    }
}
