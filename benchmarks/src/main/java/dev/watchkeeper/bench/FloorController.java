package dev.watchkeeper.bench;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.Pair;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The floor of the end-to-end scenario: a bare client (client-java's {@code ApiClient}, JSON trees, no cache, no
 * watch, no queue) that sends exactly the writes the sample's reconciler sends, on as many threads as the
 * reconciler's concurrency. A new generator: the finalizer (a JSON patch testing the resourceVersion), the 2
 * ConfigMaps (server-side apply as the reconciler's field manager, {@code force=true}, owned by the generator), the
 * status (a PUT of the status subresource with the resourceVersion the finalizer patch returned). A spec change:
 * the 2 applies and the status PUT. It knows each generator from a list it made before the clock starts, as the
 * reconciler knows it from its synced cache, and it learns of a spec change the instant the user's patch returns.
 */
final class FloorController {

    private static final String JSON_PATCH = "application/json-patch+json";
    private static final String APPLY_PATCH = "application/apply-patch+yaml";

    private final GeneratorApi api;
    private final int concurrency;

    FloorController(GeneratorApi api, int concurrency) {
        this.api = api;
        this.concurrency = concurrency;
    }

    /** Reconciles every listed new generator; nanoseconds from the first write to the last answer. */
    long reconcileNew(List<JsonObject> generators) throws Exception {
        long start = System.nanoTime();
        GeneratorApi.forEach(generators, concurrency, generator -> writeAll(addFinalizer(generator)));
        return System.nanoTime() - start;
    }

    /**
     * The user changes every generator's spec on {@code userThreads} threads; each changed generator is handed to
     * the floor's own {@code concurrency} threads the moment its patch returns. Nanoseconds from the first user
     * patch to the floor's last answer.
     */
    long reconcileSpecChange(String namespace, List<String> names, int userThreads, String value) throws Exception {
        ExecutorService users = Executors.newFixedThreadPool(userThreads);
        ExecutorService workers = Executors.newFixedThreadPool(concurrency);
        try {
            long start = System.nanoTime();
            List<Future<Future<?>>> changes = new ArrayList<>();
            for (String name : names) {
                changes.add(users.submit(() -> {
                    JsonObject changed = api.changeSpec(namespace, name, value);
                    return workers.submit(() -> {
                        writeAll(changed);
                        return null;
                    });
                }));
            }
            for (Future<Future<?>> change : changes) {
                change.get().get();
            }
            return System.nanoTime() - start;
        } finally {
            users.shutdownNow();
            workers.shutdownNow();
        }
    }

    private JsonObject addFinalizer(JsonObject generator) throws ApiException {
        JsonObject metadata = generator.getAsJsonObject("metadata");
        JsonArray patch = new JsonArray();
        patch.add(operation("test", "/metadata/resourceVersion", metadata.get("resourceVersion")));
        patch.add(operation("add", "/metadata/finalizers", GeneratorApi.array(GeneratorApi.FINALIZER)));
        return api.send("PATCH", path(generator), List.of(), patch, JSON_PATCH).getAsJsonObject();
    }

    /** The 2 ConfigMaps, then the status, for the generator as stored. */
    private void writeAll(JsonObject generator) throws ApiException {
        JsonObject metadata = generator.getAsJsonObject("metadata");
        String namespace = metadata.get("namespace").getAsString();
        String name = metadata.get("name").getAsString();
        long generation = GeneratorApi.generation(generator);
        List<Pair> query = List.of(new Pair("fieldManager", GeneratorApi.RECONCILER), new Pair("force", "true"));
        for (int i = 0; i < GeneratorApi.REPLICAS; i++) {
            String configMap = GeneratorApi.configMapName(name, i);
            api.send("PATCH", GeneratorApi.configMapsPath(namespace) + "/" + configMap, query,
                    configMap(generator, configMap, generation).toString(), APPLY_PATCH);
        }
        JsonObject updated = generator.deepCopy();
        updated.add("status", status(generator, generation));
        api.send("PUT", path(generator) + "/status", List.of(), updated, "application/json");
    }

    private static JsonObject configMap(JsonObject generator, String name, long generation) {
        JsonObject owner = generator.getAsJsonObject("metadata");
        JsonObject metadata = GeneratorApi.metadata(name, owner.get("namespace").getAsString());
        JsonObject labels = new JsonObject();
        labels.add(GeneratorApi.GENERATOR_LABEL, owner.get("name"));
        metadata.add("labels", labels);
        JsonObject annotations = new JsonObject();
        annotations.addProperty(GeneratorApi.GENERATION_ANNOTATION, String.valueOf(generation));
        metadata.add("annotations", annotations);
        JsonObject reference = new JsonObject();
        reference.addProperty("apiVersion", GeneratorApi.API_VERSION);
        reference.addProperty("kind", GeneratorApi.KIND);
        reference.add("name", owner.get("name"));
        reference.add("uid", owner.get("uid"));
        reference.addProperty("controller", true);
        reference.addProperty("blockOwnerDeletion", true);
        JsonArray references = new JsonArray();
        references.add(reference);
        metadata.add("ownerReferences", references);
        JsonObject configMap = new JsonObject();
        configMap.addProperty("apiVersion", "v1");
        configMap.addProperty("kind", "ConfigMap");
        configMap.add("metadata", metadata);
        configMap.add("data", generator.getAsJsonObject("spec").getAsJsonObject("content").deepCopy());
        return configMap;
    }

    /** observedGeneration and a Ready condition whose transition time stays once set, as the reconciler's. */
    private static JsonObject status(JsonObject generator, long generation) {
        JsonObject previous = generator.getAsJsonObject("status");
        String transition = previous != null && previous.has("conditions")
                ? previous.getAsJsonArray("conditions").get(0).getAsJsonObject().get("lastTransitionTime")
                        .getAsString()
                : DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(OffsetDateTime.now(ZoneOffset.UTC).withNano(0));
        JsonObject condition = new JsonObject();
        condition.addProperty("lastTransitionTime", transition);
        condition.addProperty("message", GeneratorApi.REPLICAS + " ConfigMaps up to date");
        condition.addProperty("observedGeneration", generation);
        condition.addProperty("reason", "Reconciled");
        condition.addProperty("status", "True");
        condition.addProperty("type", "Ready");
        JsonArray conditions = new JsonArray();
        conditions.add(condition);
        JsonObject status = new JsonObject();
        status.addProperty("observedGeneration", generation);
        status.add("conditions", conditions);
        return status;
    }

    private static String path(JsonObject generator) {
        JsonObject metadata = generator.getAsJsonObject("metadata");
        return GeneratorApi.generatorsPath(metadata.get("namespace").getAsString()) + "/"
                + metadata.get("name").getAsString();
    }

    private static JsonObject operation(String op, String path, JsonElement value) {
        JsonObject operation = new JsonObject();
        operation.addProperty("op", op);
        operation.addProperty("path", path);
        operation.add("value", value);
        return operation;
    }
}
