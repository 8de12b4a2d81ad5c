package dev.watchkeeper.internal.reconcile;

import dev.watchkeeper.internal.backoff.TimeSource;
import java.time.Instant;
import java.util.PriorityQueue;
import java.util.function.Consumer;

/**
 * The keys of a {@link WorkQueue} waiting for their due time, in a heap by due time (then by arrival). A key moved
 * or taken leaves a stale slot behind, skipped when it reaches the head. Used under the queue's lock.
 *
 * @param <K> the key type
 */
final class DelayedKeys<K> {

    /**
     * A delayed key's place in the heap; stale once the key left it (taken, re-added earlier, dropped).
     * {@code dueMillis} is {@code due} in epoch milliseconds, rounded down.
     */
    record Slot<K>(QueueEntry<K> entry, Instant due, long dueMillis, long sequence) implements Comparable<Slot<K>> {

        Slot(QueueEntry<K> entry, Instant due, long sequence) {
            this(entry, due, due.toEpochMilli(), sequence);
        }

        @Override
        public int compareTo(Slot<K> other) {
            int byDue = due.compareTo(other.due);
            return byDue != 0 ? byDue : Long.compare(sequence, other.sequence);
        }

        boolean isStale() {
            return entry.slot != this;
        }
    }

    private final TimeSource time;
    private final PriorityQueue<Slot<K>> heap = new PriorityQueue<>();
    /** How many keys wait here (the heap's slots that are not stale). */
    private int size;
    private long sequence;

    DelayedKeys(TimeSource time) {
        this.time = time;
    }

    /** Puts {@code entry} here, due at {@code due}; returns whether it is now the first due. */
    boolean schedule(QueueEntry<K> entry, Instant due) {
        Slot<K> slot = new Slot<>(entry, due, sequence++);
        entry.place = QueueEntry.Place.DELAYED;
        entry.slot = slot;
        heap.add(slot);
        size++;
        return heap.peek() == slot;
    }

    /** Takes a DELAYED {@code entry} out: its slot goes stale in the heap. */
    void unschedule(QueueEntry<K> entry) {
        size--;
        entry.slot = null;
    }

    /**
     * Hands the keys due at {@code nowMillis} to {@code due}, in due order; returns the first one not yet due, or
     * {@code null}. Asked on every take while anything is delayed, so it is given the clock's milliseconds, read
     * once per take.
     */
    Slot<K> promoteDue(long nowMillis, Consumer<QueueEntry<K>> due) {
        for (Slot<K> head = heap.peek(); head != null; head = heap.peek()) {
            if (head.isStale()) {
                heap.poll();
                continue;
            }
            if (!isDue(head.due(), head.dueMillis(), nowMillis)) {
                return head;
            }
            heap.poll();
            size--;
            due.accept(head.entry());
        }
        return null;
    }

    /** Drops every key, handing each to {@code dropped}. */
    void clear(Consumer<QueueEntry<K>> dropped) {
        for (Slot<K> slot : heap) {
            if (!slot.isStale()) {
                dropped.accept(slot.entry());
            }
        }
        heap.clear();
        size = 0;
    }

    boolean isEmpty() {
        return heap.isEmpty();
    }

    int size() {
        return size;
    }

    /**
     * Whether {@code due} (in epoch milliseconds rounded down: {@code dueMillis}) has come at {@code nowMillis}: one
     * due in a later millisecond has not, one in an earlier has, and only one within the current millisecond needs
     * the clock's {@link Instant}.
     */
    boolean isDue(Instant due, long dueMillis, long nowMillis) {
        return dueMillis < nowMillis || dueMillis == nowMillis && !due.isAfter(time.clock().instant());
    }
}
