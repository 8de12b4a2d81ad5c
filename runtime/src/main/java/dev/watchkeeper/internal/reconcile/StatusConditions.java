package dev.watchkeeper.internal.reconcile;

import com.google.gson.Gson;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.watchkeeper.reconcile.Conditions;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Edits {@code status.conditions} and {@code status.observedGeneration} of any object through its JSON form, as
 * client-java serializes it: JSON → edit → through the object's class → the JSON to write. So one path serves
 * client-java models, custom classes (with a {@code List<V1Condition>} or a class of their own shaped like it) and
 * {@link DynamicKubernetesObject}s. A model class keeps only what it has fields for: which of the three fields it
 * can hold is found once per class by a trial round trip ({@link Shape}), and what it cannot hold is not written.
 */
final class StatusConditions {

    /**
     * What a class can hold.
     *
     * @param conditions          {@code status.conditions}, a list of {@code type}/{@code status}/… objects
     * @param conditionGeneration {@code observedGeneration} in each condition
     * @param statusGeneration    {@code status.observedGeneration}
     */
    record Shape(boolean conditions, boolean conditionGeneration, boolean statusGeneration) {

        static final Shape ALL = new Shape(true, true, true);
    }

    private static final Map<Class<?>, Shape> SHAPES = new ConcurrentHashMap<>();
    private static final long PROBE_GENERATION = 7;

    private StatusConditions() {
    }

    /** What {@code object}'s class can hold; a dynamic object holds anything. */
    static Shape shapeOf(KubernetesObject object) {
        if (object instanceof DynamicKubernetesObject) {
            return Shape.ALL;
        }
        return SHAPES.computeIfAbsent(object.getClass(), type -> probe(object));
    }

    /**
     * {@code json}, the JSON form of {@code like}, with {@code edit} applied to its conditions and, when given,
     * {@code generation} as {@code status.observedGeneration} and as the {@code observedGeneration} of each
     * condition set; for a model class, then through that class, so what it cannot hold is not there.
     *
     * @param json    edited in place
     * @param touched collects the condition types the edit set or removed
     * @throws IllegalArgumentException when the object's class holds no {@code status.conditions} list
     */
    static JsonObject edited(JsonObject json, KubernetesObject like, Long generation, Clock clock,
            Consumer<Conditions> edit, Set<String> touched) {
        Shape shape = shapeOf(like);
        if (!shape.conditions()) {
            throw new IllegalArgumentException(like.getClass().getName() + " has no status.conditions list of"
                    + " metav1.Condition-shaped objects (type, status, lastTransitionTime, reason, message) to set"
                    + " conditions on");
        }
        JsonObject status = child(json, "status");
        boolean hadConditions = status.has("conditions") && status.get("conditions").isJsonArray();
        JsonArray conditions = hadConditions ? status.getAsJsonArray("conditions") : new JsonArray();
        edit.accept(new ConditionList(conditions, shape.conditionGeneration() ? generation : null, now(clock),
                touched));
        if (hadConditions || !conditions.isEmpty()) {
            status.add("conditions", conditions);
        }
        if (shape.statusGeneration() && generation != null) {
            status.addProperty("observedGeneration", generation);
        }
        if (like instanceof DynamicKubernetesObject) {
            return json;
        }
        return ObjectWrites.tree(ObjectWrites.fromJson(json, like));
    }

    /** Now as {@code metav1.Time} writes it: UTC, whole seconds. */
    static String now(Clock clock) {
        return DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(
                OffsetDateTime.now(clock).withOffsetSameInstant(ZoneOffset.UTC).truncatedTo(ChronoUnit.SECONDS));
    }

    /** {@code parent.name} as an object, replacing anything else there. */
    private static JsonObject child(JsonObject parent, String name) {
        JsonElement child = parent.get(name);
        if (child == null || !child.isJsonObject()) {
            parent.add(name, new JsonObject());
        }
        return parent.getAsJsonObject(name);
    }

    /**
     * Tries each field on a copy of {@code sample} with a status of nothing else and keeps the ones that come back
     * from a round trip through the class. A model that refuses a field (client-java's generated models throw on
     * unknown ones) does not hold it.
     */
    private static Shape probe(KubernetesObject sample) {
        Class<?> type = sample.getClass();
        JsonObject tree = ObjectWrites.tree(sample);
        boolean conditions = survives(type, tree, condition(false), false);
        return new Shape(conditions, conditions && survives(type, tree, condition(true), false),
                survives(type, tree, null, true));
    }

    private static JsonObject condition(boolean withGeneration) {
        JsonObject condition = new JsonObject();
        condition.addProperty("type", Conditions.READY);
        condition.addProperty("status", "True");
        if (withGeneration) {
            condition.addProperty("observedGeneration", PROBE_GENERATION);
        }
        condition.addProperty("lastTransitionTime", "2000-01-01T00:00:00Z");
        condition.addProperty("reason", "Probe");
        condition.addProperty("message", "probe");
        return condition;
    }

    private static boolean survives(Class<?> type, JsonObject sample, JsonObject condition, boolean statusGeneration) {
        JsonObject tree = sample.deepCopy();
        JsonObject status = new JsonObject();
        if (condition != null) {
            JsonArray conditions = new JsonArray();
            conditions.add(condition);
            status.add("conditions", conditions);
        }
        if (statusGeneration) {
            status.addProperty("observedGeneration", PROBE_GENERATION);
        }
        tree.add("status", status);
        JsonObject back;
        try {
            back = gson().toJsonTree(gson().fromJson(tree, type)).getAsJsonObject();
        } catch (RuntimeException refused) { // the class refuses the field: it does not hold it
            return false;
        }
        JsonElement returned = back.get("status");
        if (returned == null || !returned.isJsonObject()) {
            return false;
        }
        if (statusGeneration) {
            JsonElement generation = returned.getAsJsonObject().get("observedGeneration");
            return generation != null && generation.isJsonPrimitive() && generation.getAsLong() == PROBE_GENERATION;
        }
        JsonElement list = returned.getAsJsonObject().get("conditions");
        if (list == null || !list.isJsonArray() || list.getAsJsonArray().size() != 1
                || !list.getAsJsonArray().get(0).isJsonObject()) {
            return false;
        }
        JsonObject kept = list.getAsJsonArray().get(0).getAsJsonObject();
        return condition.keySet().stream().allMatch(kept::has)
                && condition.get("type").equals(kept.get("type")) && condition.get("status").equals(kept.get("status"))
                && (!condition.has("observedGeneration") || kept.get("observedGeneration").isJsonPrimitive()
                        && kept.get("observedGeneration").getAsLong() == PROBE_GENERATION);
    }

    private static Gson gson() {
        return JSON.getGson();
    }
}
