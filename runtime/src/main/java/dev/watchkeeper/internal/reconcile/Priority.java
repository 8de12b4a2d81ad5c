package dev.watchkeeper.internal.reconcile;

/**
 * How urgent a queued key is (docs/semantics.md §9): a change seen on a live watch, a requeue or a retry is
 * {@link #NORMAL}; a key queued only because a list, a relist or a resync found its object is {@link #LOW}, so a
 * restart's backlog does not hold up the changes that arrive meanwhile.
 */
public enum Priority {

    /** From an initial list, a relist or a resync: the object may well be reconciled already. */
    LOW,
    /** From a live watch event, a requeue, a retry or a manual trigger. */
    NORMAL;

    /** The more urgent of this and {@code other} ({@code null}: this). */
    Priority or(Priority other) {
        return other == null || compareTo(other) >= 0 ? this : other;
    }
}
