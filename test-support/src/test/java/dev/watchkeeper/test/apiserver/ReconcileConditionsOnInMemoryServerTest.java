package dev.watchkeeper.test.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.watchkeeper.internal.reconcile.Reconciler;
import dev.watchkeeper.internal.registry.RegistryServices;
import dev.watchkeeper.internal.registry.WatchkeeperRegistry;
import dev.watchkeeper.reconcile.Conditions;
import dev.watchkeeper.internal.reconcile.ReconcileFunction;
import dev.watchkeeper.reconcile.ReconcileResult;
import dev.watchkeeper.reconcile.TerminalReconcileException;
import dev.watchkeeper.reconcile.Trigger;
import dev.watchkeeper.internal.registry.ReconcilerDeclaration;
import dev.watchkeeper.internal.registry.WatcherSpec;
import dev.watchkeeper.internal.registry.WatchkeeperSettings;
import dev.watchkeeper.internal.resource.ResourceType;
import dev.watchkeeper.store.ObjectKey;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The conditions a reconciler writes after each reconcile (kstatus' {@code Ready}, {@code Reconciling},
 * {@code Stalled}), through HTTP to the in-memory server: what each outcome writes, at which generation, that an
 * unchanged outcome writes nothing, that a terminal failure's own write does not count as the change it waits for,
 * and where nothing is written (a resource without a status subresource, the setting off).
 */
class ReconcileConditionsOnInMemoryServerTest extends InMemoryServerTest {

    private static final String GROUP = "conditions.watchkeeper.dev";
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final ObjectKey KEY = new ObjectKey("default", "t1");

    private final AtomicInteger reconciles = new AtomicInteger();
    private WatchkeeperRegistry registry;

    @AfterEach
    void stopRegistry() {
        if (registry != null) {
            registry.stop();
        }
    }

    @Test
    void aSuccessMakesReadyAtTheHandedGenerationAndAnUnchangedOutcomeWritesNothing() {
        Reconciler<DynamicKubernetesObject> reconciler = start("things", (thing, context) -> ReconcileResult.done(),
                true);
        create("things", "Thing");

        await().atMost(WAIT).until(() -> status("things", Conditions.READY).isPresent());
        JsonObject ready = status("things", Conditions.READY).orElseThrow();
        assertThat(ready.get("status").getAsString()).isEqualTo("True");
        assertThat(ready.get("reason").getAsString()).isEqualTo("Succeeded");
        assertThat(ready.get("observedGeneration").getAsLong()).isEqualTo(1);
        assertThat(object("things").getAsJsonObject("status").get("observedGeneration").getAsLong()).isEqualTo(1);

        reconciler.enqueue(KEY);
        await().atMost(WAIT).until(() -> reconciles.get() >= 2 && reconciler.queueDepth() == 0
                && reconciler.snapshot().inFlight() == 0);
        assertThat(statusWrites("things")).as("the second success changes nothing, so writes nothing").isEqualTo(1);
    }

    @Test
    void aRetriedErrorIsReconcilingUntilASuccessClearsIt() {
        AtomicBoolean failing = new AtomicBoolean(true);
        start("things", (thing, context) -> {
            if (failing.get()) {
                throw new IllegalStateException("boom");
            }
            return ReconcileResult.done();
        }, true);
        create("things", "Thing");

        await().atMost(WAIT).until(() -> status("things", Conditions.RECONCILING).isPresent() && reconciles.get() >= 4);
        JsonObject reconciling = status("things", Conditions.RECONCILING).orElseThrow();
        assertThat(reconciling.get("status").getAsString()).isEqualTo("True");
        assertThat(reconciling.get("reason").getAsString()).isEqualTo("ReconcileError");
        assertThat(reconciling.get("message").getAsString()).isEqualTo("java.lang.IllegalStateException: boom");
        JsonObject ready = status("things", Conditions.READY).orElseThrow();
        assertThat(ready.get("status").getAsString()).isEqualTo("False");
        assertThat(ready.get("message").getAsString()).isEqualTo("java.lang.IllegalStateException: boom");
        assertThat(statusWrites("things")).as("retries failing alike write nothing new").isEqualTo(1);

        failing.set(false);
        await().atMost(WAIT).until(() -> status("things", Conditions.READY)
                .map(c -> c.get("status").getAsString().equals("True")).orElse(false));
        assertThat(status("things", Conditions.RECONCILING)).isEmpty();
    }

    @Test
    void aTerminalErrorStallsAndWaitsForAChangeBySomeoneElseNotForItsOwnWrite() {
        Reconciler<DynamicKubernetesObject> reconciler = start("things", (thing, context) -> {
            throw new TerminalReconcileException("spec.size must not be negative");
        }, true);
        create("things", "Thing");

        await().atMost(WAIT).until(() -> status("things", Conditions.STALLED).isPresent());
        JsonObject stalled = status("things", Conditions.STALLED).orElseThrow();
        assertThat(stalled.get("reason").getAsString()).isEqualTo("TerminalError");
        assertThat(stalled.get("message").getAsString()).isEqualTo("spec.size must not be negative");
        assertThat(status("things", Conditions.READY).orElseThrow().get("status").getAsString()).isEqualTo("False");
        String written = object("things").getAsJsonObject("metadata").get("resourceVersion").getAsString();
        await().atMost(WAIT).until(() -> reconciler.primary().store().get(KEY)
                .map(t -> written.equals(t.getMetadata().getResourceVersion())).orElse(false));

        reconciler.enqueue(KEY);
        await().during(Duration.ofMillis(300)).atMost(WAIT).until(() -> reconciler.queueDepth() == 0
                && reconciler.snapshot().inFlight() == 0);
        assertThat(reconciles).as("its own status write is not the change a terminal failure waits for").hasValue(1);

        JsonObject changed = object("things");
        changed.getAsJsonObject("spec").addProperty("size", 2);
        server.update(changed);
        await().atMost(WAIT).until(() -> status("things", Conditions.STALLED)
                .map(c -> c.get("observedGeneration").getAsLong() == 2).orElse(false));
        assertThat(reconciles).hasValue(2);
    }

    @Test
    void aReadyTheReconcileSetsItselfIsKept() {
        start("things", (thing, context) -> {
            context.updateConditions(thing, conditions -> conditions.set(Conditions.READY, false, "Waiting",
                    "for the database"));
            return ReconcileResult.done();
        }, true);
        create("things", "Thing");

        await().atMost(WAIT).until(() -> status("things", Conditions.READY).isPresent() && reconciles.get() >= 1);
        await().during(Duration.ofMillis(300)).atMost(WAIT).until(() -> status("things", Conditions.READY)
                .map(c -> c.get("reason").getAsString().equals("Waiting")).orElse(false));
        JsonObject ready = status("things", Conditions.READY).orElseThrow();
        assertThat(ready.get("status").getAsString()).isEqualTo("False");
        assertThat(ready.get("observedGeneration").getAsLong()).isEqualTo(1);
    }

    @Test
    void aResourceWithoutAStatusSubresourceGetsNoConditions() {
        server.serve(ApiResource.namespaced(GROUP, "v1", "plainthings", "PlainThing"));
        Reconciler<DynamicKubernetesObject> reconciler = start("plainthings",
                (thing, context) -> ReconcileResult.done(), true);
        create("plainthings", "PlainThing");

        await().atMost(WAIT).until(() -> reconciles.get() >= 1 && reconciler.snapshot().inFlight() == 0);
        reconciler.enqueue(KEY);
        await().atMost(WAIT).until(() -> reconciles.get() >= 2 && reconciler.snapshot().inFlight() == 0);
        assertThat(reconciler.failingKeys()).isZero();
        assertThat(statusWrites("plainthings")).isZero();
        assertThat(object("plainthings").has("status")).isFalse();
    }

    /** A custom class with no status conditions list. */
    static final class Bare implements KubernetesObject {

        String apiVersion;
        String kind;
        V1ObjectMeta metadata;
        Map<String, Object> spec;

        @Override
        public V1ObjectMeta getMetadata() {
            return metadata;
        }

        @Override
        public String getApiVersion() {
            return apiVersion;
        }

        @Override
        public String getKind() {
            return kind;
        }
    }

    @Test
    void aClassWithoutAConditionsListGetsNoConditions() {
        server.createCustomResourceDefinition(GROUP, "v1", "things", "Thing", true);
        registry = new WatchkeeperRegistry(RegistryServices.of(server.apiClient()));
        Reconciler<Bare> reconciler = registry.registerReconciler(new ReconcilerDeclaration<>("bare",
                WatcherSpec.of(ResourceType.custom(Bare.class, GROUP, "v1", "things", true)), List.of(),
                (bare, context) -> {
                    reconciles.incrementAndGet();
                    return ReconcileResult.done();
                }, 1, Set.of(Trigger.ALL), null, "test", null, List.of("default"), null));
        registry.start();
        create("things", "Thing");

        await().atMost(WAIT).until(() -> reconciles.get() >= 1 && reconciler.snapshot().inFlight() == 0);
        assertThat(reconciler.failingKeys()).isZero();
        assertThat(statusWrites("things")).isZero();
    }

    @Test
    void turnedOffItWritesNothing() {
        Reconciler<DynamicKubernetesObject> reconciler = start("things", (thing, context) -> {
            throw new IllegalStateException("boom");
        }, false);
        create("things", "Thing");

        await().atMost(WAIT).until(() -> reconciles.get() >= 3);
        assertThat(reconciler.failingKeys()).isOne();
        assertThat(statusWrites("things")).isZero();
    }

    private Reconciler<DynamicKubernetesObject> start(String plural, ReconcileFunction<DynamicKubernetesObject> body,
            boolean conditions) {
        if (plural.equals("things")) { // plainthings are served without a CRD, and without a status subresource
            server.createCustomResourceDefinition(GROUP, "v1", plural, "Thing", true);
        }
        WatchkeeperSettings settings = new WatchkeeperSettings() {
            @Override
            public boolean statusConditions(String reconcilerName) {
                return conditions;
            }
        };
        registry = new WatchkeeperRegistry(new RegistryServices(server.apiClient(), null, settings, null, null,
                null));
        Reconciler<DynamicKubernetesObject> reconciler = registry.registerReconciler(new ReconcilerDeclaration<>(
                plural, WatcherSpec.of(ResourceType.dynamic(GROUP, "v1", plural, true)), List.of(),
                (thing, context) -> {
                    reconciles.incrementAndGet();
                    return body.reconcile(thing, context);
                }, 1, Set.of(Trigger.ALL), null, "test", null, List.of("default"), null));
        registry.start();
        return reconciler;
    }

    private void create(String plural, String kind) {
        server.create(JsonParser.parseString("{\"apiVersion\": \"" + GROUP + "/v1\", \"kind\": \"" + kind + "\","
                + " \"metadata\": {\"namespace\": \"default\", \"name\": \"t1\"}, \"spec\": {\"size\": 1}}")
                .getAsJsonObject());
    }

    private JsonObject object(String plural) {
        return server.get(GROUP, plural, "default", "t1").orElseThrow();
    }

    private Optional<JsonObject> status(String plural, String type) {
        JsonObject status = object(plural).getAsJsonObject("status");
        if (status == null || !status.has("conditions")) {
            return Optional.empty();
        }
        for (JsonElement condition : status.getAsJsonArray("conditions")) {
            if (condition.getAsJsonObject().get("type").getAsString().equals(type)) {
                return Optional.of(condition.getAsJsonObject());
            }
        }
        return Optional.empty();
    }

    private long statusWrites(String plural) {
        return server.requests(plural).stream()
                .filter(request -> !request.method().equals("GET") && request.path().endsWith("/status")).count();
    }
}
