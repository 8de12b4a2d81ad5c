package dev.watchkeeper.reconcile;

import dev.watchkeeper.backoff.TimeSource;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * A queue of keys with client-go workqueue semantics (docs/semantics.md §9). A key is in at most one of <em>queued</em>
 * and <em>processing</em>:
 * <ul>
 *   <li>adding a queued key is a no-op, except that the earlier due time wins;</li>
 *   <li>adding a key being processed marks it dirty: {@link #done} queues it again, so a change that arrived
 *       during a reconcile is never lost and never runs concurrently with it;</li>
 *   <li>{@link #take} hands out keys due now first in, first out (a delayed key joins them when it falls due, in
 *       due order), waiting while none is due.</li>
 * </ul>
 * {@link #shutdown} ends every {@code take} at once; {@link #shutdownWithDrain} (client-go's
 * {@code ShutDownWithDrain}) first hands out the keys due by then.
 * Keys due now wait in a FIFO, only delayed keys in a heap, so the common add and take cost O(1).
 *
 * <pre>{@code
 * WorkQueue<ObjectKey> queue = new WorkQueue<>(TimeSource.system());
 * queue.add(key);
 * ObjectKey next = queue.take();       // null once shut down
 * try { reconcile(next); } finally { queue.done(next); }
 * }</pre>
 *
 * Time comes from the {@link TimeSource}: due times from its clock, waiting through its {@code await}, so a test
 * clock moves delayed keys without real sleeping.
 *
 * @param <K> the key type
 */
public final class WorkQueue<K> {

    /** A queued key and when it is due; in the heap, stale once the key was re-added with an earlier due time. */
    private record Slot<K>(K key, Instant due, long sequence, boolean delayed) implements Comparable<Slot<K>> {
        @Override
        public int compareTo(Slot<K> other) {
            int byDue = due.compareTo(other.due);
            return byDue != 0 ? byDue : Long.compare(sequence, other.sequence);
        }
    }

    private final TimeSource time;
    private final Object monitor = new Object();
    private final ArrayDeque<K> ready = new ArrayDeque<>();
    private final PriorityQueue<Slot<K>> heap = new PriorityQueue<>();
    private final Map<K, Slot<K>> queued = new HashMap<>();
    private final Set<K> processing = new HashSet<>();
    /** Keys added while processing, with the earliest due time asked for; queued by {@link #done}. */
    private final Map<K, Instant> dirty = new HashMap<>();
    /** How many queued keys wait in the heap for their due time. */
    private int delayed;
    private long sequence;
    private long changes;
    private boolean shutdown;
    /** Shut down to adds, but keys due at {@link #shutdownWithDrain} are still handed out. */
    private boolean draining;

    public WorkQueue(TimeSource time) {
        this.time = Objects.requireNonNull(time, "time");
    }

    /** Queues {@code key} to be taken now. */
    public void add(K key) {
        add(key, Duration.ZERO);
    }

    /** Queues {@code key} to be taken after {@code delay}; an earlier due time already queued wins. No-op once shut down. */
    public void add(K key, Duration delay) {
        Objects.requireNonNull(key, "key");
        Instant now = time.clock().instant();
        Instant due = delay.isNegative() ? now : now.plus(delay);
        synchronized (monitor) {
            if (shutdown || draining) {
                return;
            }
            if (processing.contains(key)) {
                dirty.merge(key, due, (a, b) -> a.isBefore(b) ? a : b);
                return;
            }
            enqueue(key, due, now);
        }
    }

    /**
     * Takes the key due first, waiting until one is due. The key counts as processing until {@link #done}.
     *
     * @return the key, or {@code null} once the queue is shut down (or drained)
     * @throws InterruptedException when the calling thread is interrupted while waiting
     */
    public K take() throws InterruptedException {
        synchronized (monitor) {
            while (!shutdown) {
                Instant now = time.clock().instant();
                Slot<K> head = promoteDue(now);
                K key = ready.poll();
                if (key != null) {
                    queued.remove(key);
                    processing.add(key);
                    if (!ready.isEmpty() || head != null) {
                        wakeOneTaker(); // another idle taker looks at the next key
                    }
                    return key;
                }
                if (draining) {
                    return null; // a key still processing comes back to its own worker through done
                }
                Duration wait = head == null ? Duration.ofDays(365) : Duration.between(now, head.due());
                long seen = changes;
                time.await(monitor, wait, () -> shutdown || changes != seen);
            }
            return null;
        }
    }

    /** Moves the delayed keys due by {@code now} to the FIFO, in due order; returns the next one not yet due. */
    private Slot<K> promoteDue(Instant now) {
        for (Slot<K> head = heap.peek(); head != null; head = heap.peek()) {
            if (queued.get(head.key()) != head) {
                heap.poll(); // stale: re-added earlier
            } else if (head.due().isAfter(now)) {
                return head;
            } else {
                heap.poll();
                queued.put(head.key(), new Slot<>(head.key(), head.due(), head.sequence(), false));
                ready.add(head.key());
                delayed--;
            }
        }
        return null;
    }

    /** Ends the processing of {@code key}; if it was added meanwhile, it is queued again. */
    public void done(K key) {
        synchronized (monitor) {
            if (!processing.remove(key)) {
                return;
            }
            Instant due = dirty.remove(key);
            Instant now = time.clock().instant();
            if (due != null && !shutdown && !(draining && due.isAfter(now))) {
                enqueue(key, due, now);
            }
        }
    }

    /** Ends every {@link #take} (they return {@code null}) and ignores later adds; ends a drain too. */
    public void shutdown() {
        synchronized (monitor) {
            shutdown = true;
            changes++;
            monitor.notifyAll();
        }
    }

    /**
     * Ignores later adds but keeps handing out the keys due now, and those added due now to a key being processed
     * (it is handed out after {@link #done}); {@link #take} returns {@code null} once none is left. Delayed keys are
     * dropped. {@link #shutdown} ends the drain. No-op once shut down.
     */
    public void shutdownWithDrain() {
        synchronized (monitor) {
            if (shutdown || draining) {
                return;
            }
            draining = true;
            Instant now = time.clock().instant();
            promoteDue(now);
            heap.forEach(slot -> queued.remove(slot.key(), slot));
            heap.clear();
            delayed = 0;
            dirty.values().removeIf(due -> due.isAfter(now));
            changes++;
            monitor.notifyAll();
        }
    }

    /** Whether adds are ignored: after {@link #shutdown} or {@link #shutdownWithDrain}. */
    public boolean isShutdown() {
        synchronized (monitor) {
            return shutdown || draining;
        }
    }

    /** Keys due now, waiting for a taker (client-go's {@code Len}); not delayed ones, not those being processed. */
    public int depth() {
        synchronized (monitor) {
            return queued.size() - delayed;
        }
    }

    /** Keys waiting for their due time (retries, requeues, resyncs). */
    public int delayed() {
        synchronized (monitor) {
            return delayed;
        }
    }

    /** Keys being processed. */
    public int inFlight() {
        synchronized (monitor) {
            return processing.size();
        }
    }

    /** Whether {@code key} is queued (not whether it is being processed). */
    public boolean isQueued(K key) {
        synchronized (monitor) {
            return queued.containsKey(key);
        }
    }

    /** When {@code key} is due, or {@code null} when it is not queued. */
    public Instant dueAt(K key) {
        synchronized (monitor) {
            Slot<K> slot = queued.get(key);
            return slot == null ? null : slot.due();
        }
    }

    /** Queues {@code key}, unless it is already due no later; a key in the FIFO is due, so it stays as it is. */
    private void enqueue(K key, Instant due, Instant now) {
        Slot<K> existing = queued.get(key);
        if (existing != null && (!existing.delayed() || !due.isBefore(existing.due()))) {
            return;
        }
        if (existing != null) {
            delayed--; // an earlier due time replaces a delayed slot, which goes stale in the heap
        }
        boolean later = due.isAfter(now);
        Slot<K> slot = new Slot<>(key, due, sequence++, later);
        queued.put(key, slot);
        if (later) {
            heap.add(slot);
            delayed++;
        } else {
            ready.add(key);
        }
        wakeOneTaker();
    }

    /**
     * Takers are interchangeable, so one key wakes one of them (waking all would make every idle worker contend for
     * the monitor on each add); the one that takes a key wakes the next while keys remain.
     */
    private void wakeOneTaker() {
        changes++;
        monitor.notify();
    }
}
