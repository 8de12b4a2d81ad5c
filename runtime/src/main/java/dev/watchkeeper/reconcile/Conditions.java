package dev.watchkeeper.reconcile;

/**
 * The {@code status.conditions} of the reconciled object, shaped as {@code metav1.Condition}, while
 * {@link ReconcileContext#updateConditions} edits them. Conditions are keyed by {@code type}; setting one follows
 * apimachinery's {@code meta.SetStatusCondition}: {@code lastTransitionTime} moves to now only when the condition is
 * new or its status changes, while reason, message and {@code observedGeneration} always take the new values. The
 * generation is not a parameter: Watchkeeper writes the one of the object the reconcile was handed
 * (docs/semantics.md, "Status conditions").
 *
 * <pre>{@code
 * context.updateConditions(generator, conditions -> conditions
 *         .set(Conditions.READY, true, "Synced", "2 ConfigMaps up to date"));
 * }</pre>
 */
public interface Conditions {

    /** The summary condition: {@code True} when the object is what its spec asks for. */
    String READY = "Ready";

    /** kstatus' "abnormal-true" condition: {@code True} while the controller still works towards the spec. */
    String RECONCILING = "Reconciling";

    /** kstatus' "abnormal-true" condition: {@code True} when the controller cannot make progress on its own. */
    String STALLED = "Stalled";

    /**
     * Sets condition {@code type} to {@code True} or {@code False}.
     *
     * @param reason  a CamelCase word for programs ({@code Synced}); required, as in {@code metav1.Condition}
     * @param message a sentence for people; {@code null} for none
     */
    Conditions set(String type, boolean status, String reason, String message);

    /** Sets condition {@code type} to {@code Unknown}; otherwise as {@link #set}. */
    Conditions setUnknown(String type, String reason, String message);

    /** Removes condition {@code type}, if present. */
    Conditions remove(String type);
}
