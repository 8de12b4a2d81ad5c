package dev.watchkeeper.internal.reconcile;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.watchkeeper.reconcile.Conditions;
import java.util.Iterator;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * {@link Conditions} over the JSON array {@code status.conditions}, edited in place with apimachinery's
 * {@code meta.SetStatusCondition} rules: a new condition, or one whose status changes, gets {@code now} as its
 * {@code lastTransitionTime}; reason, message and {@code observedGeneration} are always replaced. Reasons and
 * messages are checked against {@code metav1.Condition}'s schema here, so a bad one fails in the reconcile that
 * sets it, naming it, rather than as a 422 from the server.
 */
final class ConditionList implements Conditions {

    /** {@code metav1.Condition}'s pattern and limits. */
    private static final Pattern REASON = Pattern.compile("[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?");
    private static final int MAX_REASON = 1024;
    static final int MAX_MESSAGE = 32768;

    private final JsonArray conditions;
    private final Long generation;
    private final String now;
    private final Set<String> touched;

    /**
     * @param generation written as each set condition's {@code observedGeneration}; {@code null}: not written
     * @param now        the RFC 3339 time (whole seconds, as {@code metav1.Time}) of a transition
     * @param touched    collects the types set or removed
     */
    ConditionList(JsonArray conditions, Long generation, String now, Set<String> touched) {
        this.conditions = conditions;
        this.generation = generation;
        this.now = now;
        this.touched = touched;
    }

    @Override
    public Conditions set(String type, boolean status, String reason, String message) {
        return put(type, status ? "True" : "False", reason, message);
    }

    @Override
    public Conditions setUnknown(String type, String reason, String message) {
        return put(type, "Unknown", reason, message);
    }

    @Override
    public Conditions remove(String type) {
        requireType(type);
        touched.add(type);
        for (Iterator<JsonElement> it = conditions.iterator(); it.hasNext(); ) {
            if (isOfType(it.next(), type)) {
                it.remove();
            }
        }
        return this;
    }

    private Conditions put(String type, String status, String reason, String message) {
        requireType(type);
        if (reason == null || reason.length() > MAX_REASON || !REASON.matcher(reason).matches()) {
            throw new IllegalArgumentException("the reason of condition " + type + " must be a CamelCase word of at"
                    + " most " + MAX_REASON + " characters (letters, digits, _ , :), not " + quoted(reason));
        }
        touched.add(type);
        JsonObject condition = find(type);
        if (condition == null) {
            condition = new JsonObject();
            condition.addProperty("type", type);
            conditions.add(condition);
        }
        if (!condition.has("status") || !status.equals(stringOf(condition.get("status")))
                || !condition.has("lastTransitionTime")) {
            condition.addProperty("status", status);
            condition.addProperty("lastTransitionTime", now);
        }
        if (generation != null) {
            condition.addProperty("observedGeneration", generation);
        }
        condition.addProperty("reason", reason);
        condition.addProperty("message", message == null ? "" : shortened(message));
        return this;
    }

    /** At most {@value #MAX_MESSAGE} characters, the schema's limit; an error's message can be longer. */
    static String shortened(String message) {
        return message.length() <= MAX_MESSAGE ? message : message.substring(0, MAX_MESSAGE - 1) + "…";
    }

    private JsonObject find(String type) {
        for (JsonElement element : conditions) {
            if (isOfType(element, type)) {
                return element.getAsJsonObject();
            }
        }
        return null;
    }

    private static boolean isOfType(JsonElement element, String type) {
        return element.isJsonObject() && type.equals(stringOf(element.getAsJsonObject().get("type")));
    }

    private static String stringOf(JsonElement value) {
        return value != null && value.isJsonPrimitive() ? value.getAsString() : null;
    }

    private static void requireType(String type) {
        if (type == null || type.isBlank()) {
            throw new IllegalArgumentException("a condition needs a type, such as " + READY);
        }
    }

    private static String quoted(String value) {
        return value == null ? "null" : "\"" + value + "\"";
    }
}
