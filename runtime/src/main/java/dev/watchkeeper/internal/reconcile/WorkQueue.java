package dev.watchkeeper.internal.reconcile;

import dev.watchkeeper.backoff.TimeSource;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.PriorityQueue;

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
 * {@code ShutDownWithDrain}) first hands out the keys due by then. One {@link #setTimer timer}, a due time that is no
 * key's, makes a {@code take} return {@code null} to the taker that finds it due (a periodic resync, say), so its work
 * needs no thread of its own and is no queued key that counts would have to leave out.
 * Each key has one entry that says where it is; keys due now wait in a FIFO, only delayed keys in a heap. So the
 * common add, take and done each cost at most one hash lookup, and only a delay reads the clock.
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

    /** The due time of a key added without delay: it has always passed, so no clock is read for it. */
    private static final Instant NOW = Instant.MIN;
    private static final Duration FOREVER = Duration.ofDays(365);

    /** Where a key is. */
    private enum Place {
        /** In the FIFO, due now. */
        READY,
        /** In the heap, waiting for its due time. */
        DELAYED,
        /** Handed out by {@link #take}, not yet {@link #done}. */
        PROCESSING
    }

    /** A key's one entry: where it is and, in the heap or once processed, when it is due. */
    private static final class Entry<K> {
        final K key;
        Place place;
        /** DELAYED: its slot in the heap. */
        Slot<K> slot;
        /** PROCESSING: when it is due again after {@link #done} ({@link #NOW} or later), {@code null} if not added. */
        Instant dueAgain;

        Entry(K key) {
            this.key = key;
        }
    }

    /**
     * A delayed key's place in the heap; stale once the key left it (taken, re-added earlier, dropped).
     * {@code dueMillis} is {@code due} in epoch milliseconds, rounded down.
     */
    private record Slot<K>(Entry<K> entry, Instant due, long dueMillis, long sequence)
            implements Comparable<Slot<K>> {

        Slot(Entry<K> entry, Instant due, long sequence) {
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
    private final Object monitor = new Object();
    private final Map<K, Entry<K>> entries = new HashMap<>();
    private final ArrayDeque<Entry<K>> ready = new ArrayDeque<>();
    private final PriorityQueue<Slot<K>> heap = new PriorityQueue<>();
    /** How many queued keys wait in the heap for their due time. */
    private int delayed;
    private int processing;
    private long sequence;
    private long changes;
    private boolean shutdown;
    /** Shut down to adds, but keys due at {@link #shutdownWithDrain} are still handed out. */
    private boolean draining;
    /** When the timer falls due, or {@code null} when none is set; {@code timerMillis} is it rounded down. */
    private Instant timer;
    private long timerMillis;

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
        boolean later = delay.compareTo(Duration.ZERO) > 0;
        Instant due = later ? time.clock().instant().plus(delay) : NOW;
        synchronized (monitor) {
            if (shutdown || draining) {
                return;
            }
            Entry<K> entry = entries.computeIfAbsent(key, Entry::new);
            if (entry.place == Place.PROCESSING) {
                entry.dueAgain = entry.dueAgain == null || due.isBefore(entry.dueAgain) ? due : entry.dueAgain;
            } else if (entry.place == null || entry.place == Place.DELAYED && due.isBefore(entry.slot.due())) {
                queue(entry, due, later); // new, or an earlier due time than its slot's
            }
        }
    }

    /**
     * Takes the key due first, waiting until one is due. The key counts as processing until {@link #done}.
     *
     * @return the key, or {@code null} once the queue is shut down (or drained) or when the {@link #setTimer timer}
     *         fell due; {@link #isShutdown} tells which
     * @throws InterruptedException when the calling thread is interrupted while waiting
     */
    public K take() throws InterruptedException {
        synchronized (monitor) {
            return takeLocked();
        }
    }

    /**
     * {@link #done} for {@code finished}, then {@link #take}, under one acquisition of the lock instead of two: a
     * worker's step from one key to the next.
     *
     * @return the next key, or {@code null} as from {@link #take}
     * @throws InterruptedException when the calling thread is interrupted while waiting; {@code finished} is done
     */
    public K doneAndTake(K finished) throws InterruptedException {
        synchronized (monitor) {
            doneLocked(finished);
            return takeLocked();
        }
    }

    private K takeLocked() throws InterruptedException {
        while (!shutdown) {
            long nowMillis = timer == null && heap.isEmpty() ? 0 : time.clock().millis();
            if (timer != null && isDue(timer, timerMillis, nowMillis)) {
                timer = null;
                if (!ready.isEmpty()) {
                    wakeOneTaker(); // the key that woke this taker is left to another
                }
                return null;
            }
            Slot<K> head = heap.isEmpty() ? null : promoteDue(nowMillis);
            Entry<K> entry = ready.poll();
            if (entry != null) {
                entry.place = Place.PROCESSING;
                processing++;
                if (!ready.isEmpty()) {
                    wakeOneTaker(); // another idle taker takes the next key
                }
                return entry.key;
            }
            if (draining) {
                return null; // a key still processing comes back to its own worker through done
            }
            Instant next = head == null ? timer : timer == null || head.due().isBefore(timer) ? head.due() : timer;
            Duration wait = next == null ? FOREVER : Duration.between(time.clock().instant(), next);
            long seen = changes;
            time.await(monitor, wait, () -> shutdown || changes != seen);
        }
        return null;
    }

    /**
     * Moves the delayed keys due at {@code nowMillis} to the FIFO, in due order; returns the next one not yet due.
     * Every take asks this while anything is delayed, so it is given the clock's milliseconds, read once per take.
     */
    private Slot<K> promoteDue(long nowMillis) {
        for (Slot<K> head = heap.peek(); head != null; head = heap.peek()) {
            if (head.isStale()) {
                heap.poll();
                continue;
            }
            if (!isDue(head.due(), head.dueMillis(), nowMillis)) {
                return head;
            }
            heap.poll();
            delayed--;
            toReady(head.entry());
        }
        return null;
    }

    /**
     * Whether {@code due} (in epoch milliseconds rounded down: {@code dueMillis}) has come at {@code nowMillis}: one
     * due in a later millisecond has not, one in an earlier has, and only one within the current millisecond needs
     * the clock's {@link Instant}.
     */
    private boolean isDue(Instant due, long dueMillis, long nowMillis) {
        return dueMillis < nowMillis || dueMillis == nowMillis && !due.isAfter(time.clock().instant());
    }

    /** Ends the processing of {@code key}; if it was added meanwhile, it is queued again. */
    public void done(K key) {
        synchronized (monitor) {
            doneLocked(key);
        }
    }

    private void doneLocked(K key) {
        Entry<K> entry = entries.remove(key);
        if (entry == null) {
            return;
        }
        if (entry.place != Place.PROCESSING) {
            entries.put(key, entry); // queued, not processing: done is a no-op
            return;
        }
        processing--;
        Instant due = entry.dueAgain;
        if (due == null || shutdown) {
            return;
        }
        boolean later = due != NOW && due.isAfter(time.clock().instant());
        if (draining && later) {
            return;
        }
        entry.dueAgain = null;
        entry.place = null;
        entries.put(key, entry);
        queue(entry, due, later);
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
            timer = null;
            promoteDue(time.clock().millis());
            Instant now = time.clock().instant();
            for (Slot<K> slot : heap) {
                if (!slot.isStale()) {
                    entries.remove(slot.entry().key);
                }
            }
            heap.clear();
            delayed = 0;
            for (Entry<K> entry : entries.values()) {
                if (entry.dueAgain != null && entry.dueAgain.isAfter(now)) {
                    entry.dueAgain = null;
                }
            }
            changes++;
            monitor.notifyAll();
        }
    }

    /**
     * Sets the timer: the first {@link #take} that finds {@code due} come returns {@code null} to its caller, whose
     * work the timer's is, and clears it; it waits behind no key. Replaces a timer set before; no-op once shut down.
     */
    public void setTimer(Instant due) {
        Objects.requireNonNull(due, "due");
        synchronized (monitor) {
            if (shutdown || draining) {
                return;
            }
            timer = due;
            timerMillis = due.toEpochMilli();
            wakeOneTaker(); // a taker waiting for a later head waits for the timer instead
        }
    }

    /** When the timer falls due, or {@code null} when none is set (or it fell due and was taken). */
    public Instant timer() {
        synchronized (monitor) {
            return timer;
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
            return ready.size();
        }
    }

    /** Keys waiting for their due time (retries, requeues, debounced changes). */
    public int delayed() {
        synchronized (monitor) {
            return delayed;
        }
    }

    /** Keys being processed. */
    public int inFlight() {
        synchronized (monitor) {
            return processing;
        }
    }

    /** When {@code key} is due (the current time once it waits in the FIFO), or {@code null} when it is not queued. */
    public Instant dueAt(K key) {
        synchronized (monitor) {
            Entry<K> entry = entries.get(key);
            if (entry == null || entry.place == Place.PROCESSING) {
                return null;
            }
            return entry.place == Place.DELAYED ? entry.slot.due() : time.clock().instant();
        }
    }

    /** Puts a new entry, or a delayed one due earlier now, in the heap if {@code later}, else in the FIFO. */
    private void queue(Entry<K> entry, Instant due, boolean later) {
        if (entry.place == Place.DELAYED) {
            delayed--; // its old slot goes stale in the heap
            entry.slot = null;
        }
        if (later) {
            Slot<K> slot = new Slot<>(entry, due, sequence++);
            entry.place = Place.DELAYED;
            entry.slot = slot;
            heap.add(slot);
            delayed++;
            if (heap.peek() == slot) {
                wakeOneTaker(); // a taker waiting for a later head waits for this one instead
            }
        } else {
            toReady(entry);
        }
    }

    private void toReady(Entry<K> entry) {
        entry.place = Place.READY;
        entry.slot = null;
        ready.add(entry);
        if (ready.size() == 1) {
            wakeOneTaker(); // while more wait, the taker of each wakes the next
        }
    }

    /**
     * Takers are interchangeable, so a key that finds the FIFO empty wakes one of them, and each taker that leaves
     * keys behind wakes the next: one wake-up per taker needed, not one per key (an add that wakes a taker per key
     * has every idle worker contend for the monitor).
     */
    private void wakeOneTaker() {
        changes++;
        monitor.notify();
    }
}
