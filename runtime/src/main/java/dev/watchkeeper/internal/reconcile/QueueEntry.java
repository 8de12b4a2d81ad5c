package dev.watchkeeper.internal.reconcile;

import java.time.Instant;

/**
 * A key's one entry in a {@link WorkQueue}: where it is and, in the heap or once processed, when it is due. Read and
 * written only under the queue's lock.
 *
 * @param <K> the key type
 */
final class QueueEntry<K> {

    /** Where a key is. */
    enum Place {
        /** In one of the {@link DueLines}, due now. */
        READY,
        /** In the {@link DelayedKeys}, waiting for its due time. */
        DELAYED,
        /** Handed out by {@code take}, not yet {@code done}. */
        PROCESSING,
        /** Not placed yet: made for an add, or between two places (never seen outside the lock). */
        NEW
    }

    final K key;
    Place place = Place.NEW;
    /** DELAYED: its slot in the heap. */
    DelayedKeys.Slot<K> slot;
    /** PROCESSING: when it is due again after {@code done} ({@code WorkQueue.NOW} or later), {@code null} if not added. */
    Instant dueAgain;
    /** READY and DELAYED: its priority; PROCESSING: {@code null}. */
    Priority priority;
    /** PROCESSING: the priority it is queued with after {@code done}, {@code null} if not added. */
    Priority priorityAgain;
    /** READY in the LOW line: its place there; {@code null} otherwise. */
    DueLines.LowSlot<K> lowSlot;
    /** Until when no add may make it due ({@code addHeld}); {@code null} when not held. Cleared once taken. */
    Instant notBefore;

    QueueEntry(K key) {
        this.key = key;
    }

    /** PROCESSING: added again, due at {@code due} (the earlier of two adds wins) with the higher priority. */
    void addAgain(Instant due, Priority priority) {
        dueAgain = earlier(dueAgain, due);
        priorityAgain = priority.or(priorityAgain);
    }

    /** Holds it until {@code until}, or longer if it is held longer already; returns the hold now in force. */
    Instant holdUntil(Instant until) {
        notBefore = notBefore == null || until.isAfter(notBefore) ? until : notBefore;
        return notBefore;
    }

    /** Taken from its line to be processed: its priority and hold are spent. */
    void taken() {
        place = Place.PROCESSING;
        priority = null;
        notBefore = null; // taken at its due time, so its hold has passed
    }

    /** Done, and added again while processed: placed anew with the priority it was added with. */
    void requeue() {
        dueAgain = null;
        place = Place.NEW;
        priority = priorityAgain;
        priorityAgain = null;
    }

    static Instant earlier(Instant a, Instant b) {
        return a == null || b.isBefore(a) ? b : a;
    }

    static Instant later(Instant a, Instant b) {
        return b.isAfter(a) ? b : a;
    }
}
