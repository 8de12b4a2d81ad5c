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
}
