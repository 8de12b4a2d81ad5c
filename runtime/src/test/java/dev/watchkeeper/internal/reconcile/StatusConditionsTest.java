package dev.watchkeeper.internal.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.watchkeeper.internal.backoff.TimeSource;
import dev.watchkeeper.reconcile.Conditions;
import dev.watchkeeper.internal.resource.ResourceType;
import dev.watchkeeper.store.ObjectKey;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Condition;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1DeploymentCondition;
import io.kubernetes.client.openapi.models.V1DeploymentStatus;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Setting conditions through an object's JSON form ({@link StatusConditions}, {@link ConditionList}) on the three
 * kinds of object a reconciler meets: a client-java model, custom classes (a record and a plain class) and a
 * dynamic object; and {@code meta.SetStatusCondition}'s rules for {@code lastTransitionTime}.
 */
class StatusConditionsTest {

    private static final Clock T1 = Clock.fixed(Instant.parse("2026-03-01T10:00:00.750Z"), ZoneOffset.UTC);
    private static final Clock T2 = Clock.fixed(Instant.parse("2026-03-01T10:05:00Z"), ZoneOffset.UTC);

    /** A custom resource as a record, its status a record with a generation and {@code V1Condition}s. */
    record Gizmo(String apiVersion, String kind, V1ObjectMeta metadata, Status status) implements KubernetesObject {

        record Status(Long observedGeneration, List<V1Condition> conditions) {
        }

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

    /** A custom resource as a plain class whose status has conditions and no {@code observedGeneration}. */
    static final class Widget implements KubernetesObject {

        static final class Status {
            List<V1Condition> conditions;
            String phase;
        }

        V1ObjectMeta metadata = new V1ObjectMeta().name("w").namespace("default").generation(4L);
        Status status;

        @Override
        public V1ObjectMeta getMetadata() {
            return metadata;
        }

        @Override
        public String getApiVersion() {
            return "example.dev/v1";
        }

        @Override
        public String getKind() {
            return "Widget";
        }
    }

    @Test
    void aRecordGetsTheConditionAndBothGenerations() {
        Gizmo gizmo = new Gizmo("example.dev/v1", "Gizmo", new V1ObjectMeta().name("g").generation(3L), null);

        Gizmo edited = edit(gizmo, 3L, T1, c -> c.set(Conditions.READY, true, "Synced", "2 ConfigMaps up to date"));

        assertThat(edited.status().observedGeneration()).isEqualTo(3L);
        assertThat(edited.status().conditions()).singleElement().satisfies(condition -> {
            assertThat(condition.getType()).isEqualTo("Ready");
            assertThat(condition.getStatus()).isEqualTo("True");
            assertThat(condition.getReason()).isEqualTo("Synced");
            assertThat(condition.getMessage()).isEqualTo("2 ConfigMaps up to date");
            assertThat(condition.getObservedGeneration()).isEqualTo(3L);
            assertThat(condition.getLastTransitionTime()).as("whole seconds, as metav1.Time")
                    .isEqualTo(OffsetDateTime.parse("2026-03-01T10:00:00Z"));
        });
    }

    @Test
    void theTransitionTimeMovesOnlyWhenTheStatusChanges() {
        Gizmo gizmo = edit(new Gizmo("example.dev/v1", "Gizmo", new V1ObjectMeta().name("g"), null), 1L, T1,
                c -> c.set("Ready", false, "Waiting", "0 of 2"));

        Gizmo same = edit(gizmo, 2L, T2, c -> c.set("Ready", false, "StillWaiting", "1 of 2"));
        V1Condition kept = same.status().conditions().get(0);
        assertThat(kept.getLastTransitionTime()).isEqualTo(OffsetDateTime.parse("2026-03-01T10:00:00Z"));
        assertThat(kept.getReason()).isEqualTo("StillWaiting");
        assertThat(kept.getMessage()).isEqualTo("1 of 2");
        assertThat(kept.getObservedGeneration()).isEqualTo(2L);

        Gizmo flipped = edit(same, 2L, T2, c -> c.setUnknown("Ready", "Checking", null));
        V1Condition moved = flipped.status().conditions().get(0);
        assertThat(moved.getStatus()).isEqualTo("Unknown");
        assertThat(moved.getMessage()).isEmpty();
        assertThat(moved.getLastTransitionTime()).isEqualTo(OffsetDateTime.parse("2026-03-01T10:05:00Z"));
    }

    @Test
    void aClientJavaModelKeepsOnlyTheFieldsItHas() {
        V1Deployment deployment = new V1Deployment().metadata(new V1ObjectMeta().name("d").generation(5L))
                .status(new V1DeploymentStatus().replicas(2).addConditionsItem(new V1DeploymentCondition()
                        .type("Available").status("True").reason("MinimumReplicasAvailable")
                        .lastTransitionTime(OffsetDateTime.parse("2026-01-01T00:00:00Z"))));

        assertThat(StatusConditions.shapeOf(deployment))
                .as("V1DeploymentCondition has no observedGeneration; V1DeploymentStatus has one")
                .isEqualTo(new StatusConditions.Shape(true, false, true));
        V1Deployment edited = edit(deployment, 5L, T1, c -> c.set("Progressing", true, "NewReplicaSetAvailable", "ok"));

        assertThat(edited.getStatus().getObservedGeneration()).isEqualTo(5L);
        assertThat(edited.getStatus().getReplicas()).as("the rest of the status is kept").isEqualTo(2);
        assertThat(edited.getStatus().getConditions()).extracting(V1DeploymentCondition::getType)
                .containsExactly("Available", "Progressing");
        assertThat(edited.getStatus().getConditions().get(0).getLastTransitionTime())
                .isEqualTo(OffsetDateTime.parse("2026-01-01T00:00:00Z"));
    }

    @Test
    void aPlainClassWithoutAStatusGenerationGetsNone() {
        Widget widget = new Widget();
        widget.status = new Widget.Status();
        widget.status.phase = "Pending";

        assertThat(StatusConditions.shapeOf(widget)).isEqualTo(new StatusConditions.Shape(true, true, false));
        Widget edited = edit(widget, 4L, T1, c -> c.set("Ready", true, "Done", "done"));

        assertThat(edited.status.phase).isEqualTo("Pending");
        assertThat(edited.status.conditions).singleElement()
                .satisfies(condition -> assertThat(condition.getObservedGeneration()).isEqualTo(4L));
        assertThat(ObjectWrites.tree(edited).getAsJsonObject("status").has("observedGeneration")).isFalse();
    }

    @Test
    void aModelWithoutConditionsIsRefusedNamingItsClass() {
        V1ConfigMap configMap = new V1ConfigMap().metadata(new V1ObjectMeta().name("c"));

        assertThat(StatusConditions.shapeOf(configMap).conditions()).isFalse();
        assertThatThrownBy(() -> edit(configMap, 1L, T1, c -> c.set("Ready", true, "Done", "")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(V1ConfigMap.class.getName());
    }

    @Test
    void aDynamicObjectGetsEverythingAndKeepsWhatItHad() {
        DynamicKubernetesObject object = new DynamicKubernetesObject(JsonParser.parseString("""
                {"apiVersion": "example.dev/v1", "kind": "Thing", "metadata": {"name": "t", "generation": 8},
                 "status": {"phase": "Running", "conditions": [
                   {"type": "Synced", "status": "True", "lastTransitionTime": "2025-12-31T23:00:00Z",
                    "reason": "Ok", "message": "", "severity": "Info"}]}}""").getAsJsonObject());
        Set<String> touched = new HashSet<>();

        DynamicKubernetesObject edited = edit(object, 8L, T1,
                c -> c.set("Ready", true, "Done", "all good").remove("Synced").remove("Absent"), touched);

        JsonObject status = edited.getRaw().getAsJsonObject("status");
        assertThat(status.get("phase").getAsString()).isEqualTo("Running");
        assertThat(status.get("observedGeneration").getAsLong()).isEqualTo(8L);
        JsonArray conditions = status.getAsJsonArray("conditions");
        assertThat(conditions).hasSize(1);
        assertThat(conditions.get(0).getAsJsonObject().get("observedGeneration").getAsLong()).isEqualTo(8L);
        assertThat(touched).containsExactlyInAnyOrder("Ready", "Synced", "Absent");
        assertThat(object.getRaw().getAsJsonObject("status").getAsJsonArray("conditions"))
                .as("the given object is not changed").hasSize(1);
    }

    @Test
    void noGenerationWritesNoGenerationAndAnEmptyEditAddsNoList() {
        DynamicKubernetesObject object = new DynamicKubernetesObject(JsonParser.parseString(
                "{\"metadata\": {\"name\": \"t\"}}").getAsJsonObject());

        DynamicKubernetesObject removed = edit(object, null, T1, c -> c.remove("Ready"),
                new HashSet<>());
        DynamicKubernetesObject set = edit(object, null, T1, c -> c.set("Ready", true, "Done", ""),
                new HashSet<>());

        assertThat(removed.getRaw().getAsJsonObject("status").has("conditions")).isFalse();
        assertThat(set.getRaw().getAsJsonObject("status").has("observedGeneration")).isFalse();
        assertThat(set.getRaw().getAsJsonObject("status").getAsJsonArray("conditions").get(0).getAsJsonObject()
                .has("observedGeneration")).isFalse();
    }

    @Test
    void reasonsAreCheckedAndLongMessagesShortenedToTheSchemasLimits() {
        Gizmo gizmo = new Gizmo("example.dev/v1", "Gizmo", new V1ObjectMeta().name("g"), null);

        assertThatThrownBy(() -> edit(gizmo, 1L, T1, c -> c.set("Ready", true, "not a word", "")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("\"not a word\"");
        assertThatThrownBy(() -> edit(gizmo, 1L, T1, c -> c.set("Ready", true, null, "")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> edit(gizmo, 1L, T1, c -> c.set(" ", true, "Done", "")))
                .isInstanceOf(IllegalArgumentException.class);
        Gizmo edited = edit(gizmo, 1L, T1, c -> c.set("Ready", false, "Failed", "x".repeat(40_000)));
        assertThat(edited.status().conditions().get(0).getMessage()).hasSize(ConditionList.MAX_MESSAGE).endsWith("…");
    }

    @Test
    void aContextSetsConditionsOnTheReconciledObjectOnly() {
        Gizmo reconciled = new Gizmo("example.dev/v1", "Gizmo", new V1ObjectMeta().namespace("default").name("g")
                .uid("uid-g"), null);
        Gizmo other = new Gizmo("example.dev/v1", "Gizmo", new V1ObjectMeta().namespace("default").name("h")
                .uid("uid-h"), null);
        DefaultReconcileContext context = new DefaultReconcileContext("gizmos", ObjectKey.of(reconciled), 1, null,
                ResourceType.custom(Gizmo.class, "example.dev", "v1", "gizmos", true), reconciled, Map.of(),
                TimeSource.system());

        assertThatThrownBy(() -> context.updateConditions(other, c -> c.set("Ready", true, "Done", "")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("default/g")
                .hasMessageContaining("default/h");
    }

    private static <S extends KubernetesObject> S edit(S object, Long generation, Clock clock,
            Consumer<Conditions> edit) {
        return edit(object, generation, clock, edit, new HashSet<>());
    }

    /** What a status write sends for {@code object} after {@code edit}, as an object of its class. */
    private static <S extends KubernetesObject> S edit(S object, Long generation, Clock clock,
            Consumer<Conditions> edit, Set<String> touched) {
        return ObjectWrites.fromJson(StatusConditions.edited(ObjectWrites.tree(object), object, generation, clock,
                edit, touched), object);
    }
}
