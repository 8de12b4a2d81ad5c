package dev.watchkeeper.internal.reconcile;

import dev.watchkeeper.internal.backoff.TimeSource;
import java.util.ArrayDeque;

/**
 * The keys of a {@link WorkQueue} that are due now, in one FIFO line per {@link Priority}: NORMAL keys go before LOW
 * ones, except that once the oldest LOW key has waited {@code maxLowWaitMillis}, takes alternate between the lines
 * while both hold keys, so a stream of NORMAL keys cannot starve the LOW ones. FIFO order makes the head of the LOW
 * line its oldest key, the only one aging looks at; only that choice reads the clock. Used under the queue's lock.
 *
 * @param <K> the key type
 */
final class DueLines<K> {

    /**
     * A LOW key's place in the LOW line, since {@code sinceMillis}; stale once the key left it (taken, raised to
     * NORMAL, held), and then skipped when it reaches the head.
     */
    record LowSlot<K>(QueueEntry<K> entry, long sinceMillis) {

        boolean isStale() {
            return entry.lowSlot != this;
        }
    }

    private final TimeSource time;
    /** How long the oldest LOW key waits before takes alternate; 0: LOW keys join the NORMAL line at once. */
    private final long maxLowWaitMillis;
    /** NORMAL keys due now. */
    private final ArrayDeque<QueueEntry<K>> normal = new ArrayDeque<>();
    /** LOW keys due now, oldest first, with stale slots among them. */
    private final ArrayDeque<LowSlot<K>> low = new ArrayDeque<>();
    /** How many keys wait in the LOW line (its slots that are not stale). */
    private int lowDepth;
    /** Whether the next take serves an aged LOW key before a NORMAL one: set by a NORMAL take, cleared by a LOW. */
    private boolean lowTurn;

    DueLines(TimeSource time, long maxLowWaitMillis) {
        this.time = time;
        this.maxLowWaitMillis = maxLowWaitMillis;
    }

    /** Puts {@code entry} at the end of its priority's line; without priorities a LOW key is served as NORMAL. */
    void add(QueueEntry<K> entry) {
        entry.place = QueueEntry.Place.READY;
        entry.slot = null;
        if (entry.priority == Priority.LOW && maxLowWaitMillis > 0) {
            entry.lowSlot = new LowSlot<>(entry, time.clock().millis());
            low.add(entry.lowSlot);
            lowDepth++;
        } else {
            entry.priority = Priority.NORMAL;
            normal.add(entry);
        }
    }

    /** Moves a LOW {@code entry} to the end of the NORMAL line: it waited behind NORMAL keys long enough. */
    void raise(QueueEntry<K> entry) {
        unlinkLow(entry);
        entry.priority = Priority.NORMAL;
        add(entry);
    }

    /** The key to hand out now, or {@code null} when none is due. */
    QueueEntry<K> poll() {
        if (lowDepth == 0) {
            return normal.poll();
        }
        if (normal.isEmpty() || lowTurn && aged(oldestLow())) {
            lowTurn = false;
            return pollLow();
        }
        lowTurn = true;
        return normal.poll();
    }

    /** Takes {@code entry} out of its line: O(1) for the LOW line, a scan of the NORMAL one (rare: holds). */
    void remove(QueueEntry<K> entry) {
        if (entry.lowSlot != null) {
            unlinkLow(entry);
        } else {
            normal.remove(entry);
        }
        entry.place = QueueEntry.Place.NEW;
    }

    /** Keys due now, in both lines. */
    int size() {
        return normal.size() + lowDepth;
    }

    int normalSize() {
        return normal.size();
    }

    int lowSize() {
        return lowDepth;
    }

    private boolean aged(LowSlot<K> oldest) {
        return time.clock().millis() - oldest.sinceMillis() >= maxLowWaitMillis;
    }

    /** The head of the LOW line, its stale slots dropped; the line must hold a key. */
    private LowSlot<K> oldestLow() {
        LowSlot<K> head = low.peek();
        while (head.isStale()) {
            low.poll();
            head = low.peek();
        }
        return head;
    }

    private QueueEntry<K> pollLow() {
        QueueEntry<K> entry = oldestLow().entry();
        low.poll();
        unlinkLow(entry);
        return entry;
    }

    /** Takes {@code entry} out of the LOW line; its slot goes stale there. */
    private void unlinkLow(QueueEntry<K> entry) {
        entry.lowSlot = null;
        lowDepth--;
    }
}
