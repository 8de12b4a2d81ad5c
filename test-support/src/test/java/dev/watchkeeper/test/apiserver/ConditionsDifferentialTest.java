package dev.watchkeeper.test.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.watchkeeper.internal.reconcile.DefaultReconcileContext;
import dev.watchkeeper.reconcile.Conditions;
import dev.watchkeeper.reconcile.ReconcileContext;
import dev.watchkeeper.internal.resource.ResourceType;
import dev.watchkeeper.store.ObjectKey;
import dev.watchkeeper.test.VirtualTime;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1Condition;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * {@link ReconcileContext#updateConditions} against a model of apimachinery's {@code meta.SetStatusCondition}, over
 * seeded random interleavings of spec changes (generation bumps), reconciles that set and remove conditions, and
 * spec changes by another writer between a reconcile's read and its status write (a 409, then the edit again on a
 * fresher copy). After every step the stored conditions must be the model's, no condition may claim a generation
 * that was not the one reconciled, and {@code lastTransitionTime} changes exactly when a condition's status does.
 * Both a custom class and a dynamic object are written. Seeds {@code base, base + 1, …}:
 * {@code -Dwatchkeeper.conditions.seed=S} (default 0) and {@code -Dwatchkeeper.conditions.tries=N} (default 12);
 * a failure names its seed.
 */
class ConditionsDifferentialTest extends InMemoryServerTest {

    private static final String GROUP = "differential.watchkeeper.dev";
    private static final String PLURAL = "gauges";
    private static final List<String> TYPES = List.of(Conditions.READY, "Synced", "Degraded");
    private static final int STEPS = 40;

    /** The custom class: a {@code List<V1Condition>} and a generation in its status. */
    static final class Gauge implements KubernetesObject {

        static final class Status {
            Long observedGeneration;
            List<V1Condition> conditions;
        }

        String apiVersion;
        String kind;
        V1ObjectMeta metadata;
        Map<String, Object> spec;
        Status status;

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

    /** The model's condition; {@code transition} in whole seconds, as {@code metav1.Time}. */
    private record Expected(String status, Instant transition, long generation, String reason, String message) {
    }

    /** One edit a reconcile makes: a set ({@code status} non-null) or a remove. */
    private record Edit(String type, String status, String reason, String message) {
    }

    @Test
    void conditionsClaimTheReconciledGenerationAndMoveTheirTransitionOnlyWithTheirStatus() {
        server.createCustomResourceDefinition(GROUP, "v1", PLURAL, "Gauge", true);
        int tries = Integer.getInteger("watchkeeper.conditions.tries", 12);
        long base = Long.getLong("watchkeeper.conditions.seed", 0L);
        for (long seed = base; seed < base + tries; seed++) {
            try {
                new Run(new Random(seed), "g" + seed, seed % 2 == 0).steps();
            } catch (Exception | AssertionError failure) {
                throw new AssertionError("the run with seed " + seed + " failed; replay it with"
                        + " -Dwatchkeeper.conditions.seed=" + seed + " -Dwatchkeeper.conditions.tries=1", failure);
            }
        }
    }

    /** One object's life under random steps. */
    private final class Run {

        private final Random random;
        private final String name;
        private final boolean typed;
        private final VirtualTime time = new VirtualTime();
        private final Map<String, Expected> expected = new HashMap<>();
        private final Set<Long> reconciled = new HashSet<>();
        private Long expectedStatusGeneration;

        Run(Random random, String name, boolean typed) {
            this.random = random;
            this.name = name;
            this.typed = typed;
        }

        void steps() throws Exception {
            server.create(JsonParser.parseString("{\"apiVersion\": \"" + GROUP + "/v1\", \"kind\": \"Gauge\","
                    + " \"metadata\": {\"namespace\": \"default\", \"name\": \"" + name + "\"},"
                    + " \"spec\": {\"size\": 0}}").getAsJsonObject());
            for (int step = 0; step < STEPS; step++) {
                time.advance(Duration.ofMillis(random.nextInt(3000)));
                if (random.nextInt(10) < 3) {
                    bumpSpec();
                } else {
                    reconcile();
                }
                check(stored());
            }
        }

        private void reconcile() throws Exception {
            KubernetesObject handed = read();
            long generation = handed.getMetadata().getGeneration();
            reconciled.add(generation);
            ResourceType<?> type = typed ? ResourceType.custom(Gauge.class, GROUP, "v1", PLURAL, true)
                    : ResourceType.dynamic(GROUP, "v1", PLURAL, true);
            ReconcileContext context = new DefaultReconcileContext("differential", ObjectKey.of(handed), 1,
                    server.apiClient(), type, handed, Map.of(), time);
            KubernetesObject latest = handed;
            for (int write = 1 + random.nextInt(3); write > 0; write--) {
                List<Edit> edits = edits();
                boolean interfere = random.nextInt(4) == 0;
                AtomicBoolean first = new AtomicBoolean(true);
                AtomicReference<Instant> now = new AtomicReference<>();
                Map<String, JsonObject> before = stored();
                latest = context.updateConditions(latest, conditions -> {
                    if (interfere && first.getAndSet(false)) {
                        bumpSpec(); // another writer, between this write's read and its PUT: a 409, then a retry
                    }
                    now.set(time.clock().instant().truncatedTo(ChronoUnit.SECONDS));
                    edits.forEach(edit -> apply(conditions, edit));
                });
                edits.forEach(edit -> model(edit, generation, now.get()));
                expectedStatusGeneration = generation;
                checkTransitions(before, stored(), now.get(), edits);
            }
        }

        private List<Edit> edits() {
            List<Edit> edits = new ArrayList<>();
            for (int i = 1 + random.nextInt(3); i > 0; i--) {
                String type = TYPES.get(random.nextInt(TYPES.size()));
                edits.add(random.nextInt(6) == 0 ? new Edit(type, null, null, null)
                        : new Edit(type, List.of("True", "False", "Unknown").get(random.nextInt(3)),
                                random.nextBoolean() ? "Synced" : "Waiting", "message " + random.nextInt(3)));
            }
            return edits;
        }

        private static void apply(Conditions conditions, Edit edit) {
            if (edit.status() == null) {
                conditions.remove(edit.type());
            } else if (edit.status().equals("Unknown")) {
                conditions.setUnknown(edit.type(), edit.reason(), edit.message());
            } else {
                conditions.set(edit.type(), edit.status().equals("True"), edit.reason(), edit.message());
            }
        }

        /** {@code meta.SetStatusCondition}, by hand. */
        private void model(Edit edit, long generation, Instant now) {
            if (edit.status() == null) {
                expected.remove(edit.type());
                return;
            }
            Expected old = expected.get(edit.type());
            Instant transition = old != null && old.status().equals(edit.status()) ? old.transition() : now;
            expected.put(edit.type(), new Expected(edit.status(), transition, generation, edit.reason(),
                    edit.message()));
        }

        private void bumpSpec() {
            JsonObject current = server.get(GROUP, PLURAL, "default", name).orElseThrow();
            JsonObject spec = current.getAsJsonObject("spec");
            spec.addProperty("size", spec.get("size").getAsInt() + 1);
            server.update(current);
        }

        private KubernetesObject read() {
            JsonObject json = server.get(GROUP, PLURAL, "default", name).orElseThrow();
            return typed ? JSON.getGson().fromJson(json, Gauge.class) : new DynamicKubernetesObject(json);
        }

        private Map<String, JsonObject> stored() {
            JsonObject status = server.get(GROUP, PLURAL, "default", name).orElseThrow().getAsJsonObject("status");
            Map<String, JsonObject> conditions = new HashMap<>();
            if (status != null && status.has("conditions")) {
                for (JsonElement condition : status.getAsJsonArray("conditions")) {
                    conditions.put(condition.getAsJsonObject().get("type").getAsString(), condition.getAsJsonObject());
                }
            }
            return conditions;
        }

        /** The stored conditions are the model's, each at a generation that was reconciled. */
        private void check(Map<String, JsonObject> stored) {
            JsonObject object = server.get(GROUP, PLURAL, "default", name).orElseThrow();
            long current = object.getAsJsonObject("metadata").get("generation").getAsLong();
            assertThat(stored.keySet()).as("condition types").isEqualTo(expected.keySet());
            stored.forEach((type, condition) -> {
                Expected model = expected.get(type);
                long claimed = condition.get("observedGeneration").getAsLong();
                assertThat(reconciled).as("%s claims generation %d, which no reconcile was handed", type, claimed)
                        .contains(claimed);
                assertThat(claimed).as("%s's generation", type).isEqualTo(model.generation())
                        .isLessThanOrEqualTo(current);
                assertThat(condition.get("status").getAsString()).as("%s's status", type).isEqualTo(model.status());
                assertThat(transition(condition)).as("%s's lastTransitionTime", type).isEqualTo(model.transition());
                assertThat(condition.get("reason").getAsString()).isEqualTo(model.reason());
                assertThat(condition.get("message").getAsString()).isEqualTo(model.message());
            });
            JsonObject status = object.getAsJsonObject("status");
            if (expectedStatusGeneration != null) {
                assertThat(status.get("observedGeneration").getAsLong()).as("status.observedGeneration")
                        .isEqualTo(expectedStatusGeneration);
            }
        }

        /**
         * Across one write, for each condition there before and not removed by it: when none of the write's sets
         * changed its status it keeps its {@code lastTransitionTime}, else it takes the write's time.
         */
        private static void checkTransitions(Map<String, JsonObject> before, Map<String, JsonObject> after,
                Instant now, List<Edit> edits) {
            after.forEach((type, condition) -> {
                JsonObject old = before.get(type);
                if (old == null || edits.stream().anyMatch(e -> e.type().equals(type) && e.status() == null)) {
                    return;
                }
                String status = old.get("status").getAsString();
                boolean transitioned = false;
                for (Edit edit : edits) {
                    if (edit.type().equals(type) && !edit.status().equals(status)) {
                        transitioned = true;
                        status = edit.status();
                    }
                }
                assertThat(transition(condition)).as("%s's lastTransitionTime after a write that %s its status", type,
                        transitioned ? "changed" : "kept").isEqualTo(transitioned ? now : transition(old));
            });
        }

        private static Instant transition(JsonObject condition) {
            return OffsetDateTime.parse(condition.get("lastTransitionTime").getAsString()).toInstant();
        }
    }
}
