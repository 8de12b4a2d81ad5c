package dev.watchkeeper.internal.reconcile;

import dev.watchkeeper.reconcile.FakeWatchApi;
import dev.watchkeeper.reconcile.ManualTime;
import dev.watchkeeper.reconcile.ReconcileContext;
import dev.watchkeeper.reconcile.ReconcileResult;
import dev.watchkeeper.reconcile.Trigger;
import static dev.watchkeeper.reconcile.TestObjects.configMap;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.watchkeeper.internal.resource.ResourceType;
import dev.watchkeeper.internal.watch.Watcher;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A reconciler's finalizer (docs/semantics.md §10) against a small API server that applies the JSON patches and
 * feeds the watch, in manual time: the finalizer is added before the first reconcile, the cleanup runs on delete
 * and is retried with the object's backoff, and the finalizer is removed exactly once.
 */
@Timeout(10)
class FinalizerTest {

    static final ResourceType<V1ConfigMap> CONFIG_MAPS = ReconcilerTest.CONFIG_MAPS;
    static final String FINALIZER = "test.watchkeeper.dev/cleanup";

    @BeforeAll
    static void pollQuickly() {
        Awaitility.setDefaultPollInterval(Duration.ofMillis(5));
    }

    private final FakeWatchApi<V1ConfigMap> watchApi = new FakeWatchApi<>(CONFIG_MAPS);
    private final Watcher<V1ConfigMap> configMaps = Watcher.builder(watchApi, CONFIG_MAPS).build();
    private final PatchServer server = new PatchServer(watchApi);
    private final ManualTime time = new ManualTime();
    private final List<ReconcileOutcome> outcomes = new CopyOnWriteArrayList<>();
    private final List<String> reconciled = new CopyOnWriteArrayList<>();
    private final List<String> cleanedUp = new CopyOnWriteArrayList<>();
    private Reconciler<V1ConfigMap> reconciler;

    @AfterEach
    void closeEverything() {
        if (reconciler != null) {
            reconciler.close(Duration.ofSeconds(1));
        }
        configMaps.close();
        server.close();
    }

    @Test
    void addsTheFinalizerWithAResourceVersionTestBeforeTheFirstReconcile() {
        server.given(configMap("a", "1"), withFinalizers(configMap("b", "1"), "other.io/keep"));
        start(cleanupFailingTimes(0));

        await().until(() -> firstReconcile("a") != null && firstReconcile("b") != null);

        assertThat(firstReconcile("a")).isEqualTo("a " + List.of(FINALIZER));
        assertThat(firstReconcile("b")).isEqualTo("b " + List.of("other.io/keep", FINALIZER));
        assertThat(server.patches("a")).containsExactly("[{\"op\":\"test\",\"path\":\"/metadata/resourceVersion\","
                + "\"value\":\"1\"},{\"op\":\"add\",\"path\":\"/metadata/finalizers\",\"value\":[\"" + FINALIZER + "\"]}]");
        assertThat(server.patches("b")).containsExactly("[{\"op\":\"test\",\"path\":\"/metadata/resourceVersion\","
                + "\"value\":\"1\"},{\"op\":\"add\",\"path\":\"/metadata/finalizers/-\",\"value\":\"" + FINALIZER + "\"}]");
        assertThat(server.contentTypes()).containsOnly("application/json-patch+json; charset=utf-8");
        assertThat(cleanedUp).isEmpty();
    }

    @Test
    void aFinalizerPatchOnAStaleObjectFailsAndSucceedsOnceTheCacheCatchesUp() {
        server.given(configMap("a", "1"));
        server.changeOnServerOnly("a"); // the server is at a newer version the watch has not delivered yet
        start(cleanupFailingTimes(0));

        await().until(() -> outcomes.size() == 1);
        assertThat(outcomes.get(0).kind()).isEqualTo(ReconcileOutcome.Kind.ERROR);
        assertThat(outcomes.get(0).error()).hasMessageContaining("422");
        assertThat(reconciled).as("no reconcile without the finalizer").isEmpty();

        server.deliver("a");
        await().until(() -> firstReconcile("a") != null);
        assertThat(firstReconcile("a")).isEqualTo("a " + List.of(FINALIZER));
    }

    @Test
    void cleansUpOnDeleteAndRemovesTheFinalizerOnce() {
        server.given(withFinalizers(configMap("a", "1"), FINALIZER));
        start(cleanupFailingTimes(0));
        await().until(() -> reconciled.size() == 1);

        server.delete("a");

        await().until(() -> server.gone("a") && configMaps.store().size() == 0);
        assertThat(cleanedUp).containsExactly("a");
        assertThat(reconciled).as("an object being deleted is cleaned up, not reconciled")
                .containsExactly("a " + List.of(FINALIZER));
        assertThat(server.patches("a")).containsExactly("[{\"op\":\"test\",\"path\":\"/metadata/finalizers/0\","
                + "\"value\":\"" + FINALIZER + "\"},{\"op\":\"remove\",\"path\":\"/metadata/finalizers/0\"}]");
        assertThat(outcomes).filteredOn(ReconcileOutcome::cleanup).singleElement()
                .satisfies(o -> assertThat(o.kind()).isEqualTo(ReconcileOutcome.Kind.DONE));
        assertThat(reconciler.counts().cleanups()).isEqualTo(1);
    }

    @Test
    void aFailingCleanupIsRetriedWithTheObjectsBackOffAndKeepsTheFinalizer() {
        server.given(withFinalizers(configMap("a", "1"), "other.io/keep", FINALIZER));
        start(cleanupFailingTimes(3));
        await().until(() -> reconciled.size() == 1);

        server.delete("a");
        for (int failures = 1; failures <= 3; failures++) {
            int seen = failures;
            await().until(() -> outcomes.stream().filter(ReconcileOutcome::cleanup).count() == seen);
            assertThat(server.patches("a")).as("the finalizer stays while the cleanup fails").isEmpty();
            time.advance(Duration.ofMillis(5L << (failures - 1)));
        }
        await().until(() -> reconciler.counts().cleanups() == 1);

        List<ReconcileOutcome> cleanups = outcomes.stream().filter(ReconcileOutcome::cleanup).toList();
        assertThat(cleanups).extracting(ReconcileOutcome::attempt).containsExactly(1, 2, 3, 4);
        assertThat(cleanups).extracting(ReconcileOutcome::next).containsExactly(Duration.ofMillis(5),
                Duration.ofMillis(10), Duration.ofMillis(20), null);
        assertThat(server.patches("a")).as("removed once, at index 1 where it is").containsExactly(
                "[{\"op\":\"test\",\"path\":\"/metadata/finalizers/1\",\"value\":\"" + FINALIZER + "\"},"
                        + "{\"op\":\"remove\",\"path\":\"/metadata/finalizers/1\"}]");
        await().until(() -> configMaps.store().get("default", "a")
                .map(c -> c.getMetadata().getFinalizers().equals(List.of("other.io/keep"))).orElse(false)
                && reconciler.queueDepth() == 0 && reconciler.snapshot().inFlight() == 0);
        assertThat(outcomes).filteredOn(ReconcileOutcome::cleanup).as("nothing left for us once ours is gone")
                .hasSize(4);
        assertThat(reconciled).as("nor reconciled while being deleted").hasSize(1);
        assertThat(reconciler.failingKeys()).isZero();
    }

    @Test
    void anObjectBeingDeletedWithoutOurFinalizerIsNeitherReconciledNorCleanedUp() {
        V1ConfigMap leaving = withFinalizers(configMap("leaving", "1"), "other.io/keep");
        leaving.getMetadata().setDeletionTimestamp(OffsetDateTime.parse("2025-01-01T00:00:00Z"));
        server.given(leaving, configMap("staying", "1"));
        start(cleanupFailingTimes(0));

        await().until(() -> server.patches("staying").size() == 1 && reconciled.size() == 2
                && reconciler.queueDepth() == 0 && reconciler.snapshot().inFlight() == 0);

        assertThat(reconciled).as("staying, before and after the finalizer's own event")
                .containsOnly("staying " + List.of(FINALIZER));
        assertThat(cleanedUp).isEmpty();
        assertThat(server.patches("leaving")).isEmpty();
    }

    @Test
    void withAGenerationFilterTheStartOfADeletionStillReachesTheCleanup() {
        server.given(withFinalizers(configMap("a", "1"), FINALIZER));
        reconciler = Reconciler.builder("test", configMaps, this::reconcile)
                .settings(ReconcilerSettings.defaults().withTriggers(Trigger.GENERATION))
                .finalizer(new Finalizer<>(FINALIZER, cleanupFailingTimes(0)))
                .apiClient(server.client()).timeSource(time).listener(outcomes::add).build();
        configMaps.start();
        reconciler.start();
        await().until(() -> reconciled.size() == 1);

        server.delete("a"); // a ConfigMap has no generation to change

        await().until(() -> cleanedUp.size() == 1);
    }

    // ---- set-up

    private void start(CleanupFunction<V1ConfigMap> cleanup) {
        reconciler = Reconciler.builder("test", configMaps, this::reconcile)
                .finalizer(new Finalizer<>(FINALIZER, cleanup))
                .apiClient(server.client())
                .timeSource(time)
                .listener(outcomes::add)
                .build();
        configMaps.start();
        reconciler.start();
    }

    /** What the first reconcile of {@code name} saw: name and finalizers; {@code null} before it. */
    private String firstReconcile(String name) {
        return reconciled.stream().filter(r -> r.startsWith(name + " ")).findFirst().orElse(null);
    }

    private ReconcileResult reconcile(V1ConfigMap object, ReconcileContext context) {
        reconciled.add(object.getMetadata().getName() + " " + object.getMetadata().getFinalizers());
        return ReconcileResult.done();
    }

    private CleanupFunction<V1ConfigMap> cleanupFailingTimes(int failures) {
        AtomicInteger calls = new AtomicInteger();
        return (object, context) -> {
            if (calls.incrementAndGet() <= failures) {
                throw new IllegalStateException("cleanup failed, call " + calls.get());
            }
            cleanedUp.add(object.getMetadata().getName());
        };
    }

    private static V1ConfigMap withFinalizers(V1ConfigMap configMap, String... finalizers) {
        configMap.getMetadata().setFinalizers(new ArrayList<>(List.of(finalizers)));
        return configMap;
    }

    /**
     * The API server's side of the finalizer patches for ConfigMaps in {@code default}: applies {@code test},
     * {@code add} and {@code remove} on {@code metadata}, answers 422 when a test fails, and feeds every change to
     * the watch; an object being deleted whose last finalizer goes is deleted.
     */
    static final class PatchServer {

        private static final String PATH = "/api/v1/namespaces/default/configmaps/";

        private final FakeWatchApi<V1ConfigMap> watch;
        private final Map<String, JsonObject> objects = new ConcurrentHashMap<>();
        private final Map<String, List<String>> patches = new ConcurrentHashMap<>();
        private final List<String> contentTypes = new CopyOnWriteArrayList<>();
        private final AtomicLong versions = new AtomicLong(100);
        private final HttpServer http;

        PatchServer(FakeWatchApi<V1ConfigMap> watch) {
            this.watch = watch;
            try {
                http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            http.createContext(PATH, this::handle);
            http.start();
        }

        ApiClient client() {
            return new ApiClient().setBasePath("http://127.0.0.1:" + http.getAddress().getPort());
        }

        /** Objects on the server and in the watch's first list. */
        void given(V1ConfigMap... configMaps) {
            for (V1ConfigMap configMap : configMaps) {
                objects.put(configMap.getMetadata().getName(), tree(configMap));
            }
            watch.listing(configMaps);
        }

        /** A change the watch does not deliver (until {@link #deliver}). */
        void changeOnServerOnly(String name) {
            Json.metadata(objects.get(name)).addProperty("resourceVersion", Long.toString(versions.incrementAndGet()));
        }

        void deliver(String name) {
            watch.apply(model(objects.get(name)));
        }

        /** A DELETE: the object is kept, marked, until its finalizers are gone. */
        void delete(String name) {
            JsonObject object = objects.get(name);
            Json.metadata(object).addProperty("deletionTimestamp", "2025-01-01T00:00:00Z");
            Json.metadata(object).addProperty("resourceVersion", Long.toString(versions.incrementAndGet()));
            watch.apply(model(object));
        }

        boolean gone(String name) {
            return !objects.containsKey(name);
        }

        List<String> patches(String name) {
            return patches.getOrDefault(name, List.of());
        }

        List<String> contentTypes() {
            return contentTypes;
        }

        void close() {
            http.stop(0);
        }

        private void handle(HttpExchange exchange) throws IOException {
            String name = exchange.getRequestURI().getPath().substring(PATH.length());
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            JsonObject object = objects.get(name);
            if (!exchange.getRequestMethod().equals("PATCH") || object == null) {
                reply(exchange, 404, "{\"kind\":\"Status\",\"code\":404}");
                return;
            }
            patches.computeIfAbsent(name, n -> new CopyOnWriteArrayList<>()).add(body);
            contentTypes.add(exchange.getRequestHeaders().getFirst("Content-Type"));
            JsonObject patched = object.deepCopy();
            for (JsonElement element : JsonParser.parseString(body).getAsJsonArray()) {
                if (!Json.apply(patched, element.getAsJsonObject())) {
                    reply(exchange, 422, "{\"kind\":\"Status\",\"code\":422,\"reason\":\"Invalid\"}");
                    return;
                }
            }
            JsonObject metadata = Json.metadata(patched);
            metadata.addProperty("resourceVersion", Long.toString(versions.incrementAndGet()));
            boolean delete = metadata.has("deletionTimestamp") && (!metadata.has("finalizers")
                    || metadata.getAsJsonArray("finalizers").isEmpty());
            if (delete) {
                objects.remove(name);
                watch.delete(model(patched));
            } else {
                objects.put(name, patched);
                watch.apply(model(patched));
            }
            reply(exchange, 200, patched.toString());
        }

        private static void reply(HttpExchange exchange, int code, String body) throws IOException {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(code, bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        }

        private static JsonObject tree(V1ConfigMap configMap) {
            return JSON.getGson().toJsonTree(configMap).getAsJsonObject();
        }

        private static V1ConfigMap model(JsonObject object) {
            return JSON.getGson().fromJson(object, V1ConfigMap.class);
        }
    }

    /** The few JSON patch operations the finalizer patches use, on {@code metadata}. */
    private static final class Json {

        static JsonObject metadata(JsonObject object) {
            return object.getAsJsonObject("metadata");
        }

        /** Applies one operation; {@code false} when a {@code test} fails or the path is missing. */
        static boolean apply(JsonObject object, JsonObject operation) {
            String[] path = operation.get("path").getAsString().substring("/metadata/".length()).split("/");
            JsonObject metadata = metadata(object);
            String op = operation.get("op").getAsString();
            if (path.length == 1) {
                if (op.equals("test")) {
                    return operation.get("value").equals(metadata.get(path[0]));
                }
                metadata.add(path[0], operation.get("value"));
                return true;
            }
            JsonArray list = metadata.getAsJsonArray(path[0]);
            if (list == null) {
                return false;
            }
            if (path[1].equals("-")) {
                list.add(operation.get("value"));
                return true;
            }
            int index = Integer.parseInt(path[1]);
            if (index >= list.size()) {
                return false;
            }
            if (op.equals("test")) {
                return operation.get("value").equals(list.get(index));
            }
            list.remove(index);
            return true;
        }
    }
}
