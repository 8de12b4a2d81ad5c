package dev.watchkeeper.internal.reconcile;

import static dev.watchkeeper.internal.reconcile.QueueEntry.earlier;
import static dev.watchkeeper.internal.reconcile.QueueEntry.later;

import dev.watchkeeper.internal.backoff.TimeSource;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A queue of keys with client-go workqueue semantics, whose rules are docs/semantics.md §9: a key is in at most one of
 * <em>queued</em> and <em>processing</em>; adding a queued key keeps the earlier due time and the higher
 * {@link Priority}; adding a key being processed marks it dirty, so {@link #done} queues it again; {@link #take} hands
 * out due keys first in, first out, NORMAL before LOW with aging; {@link #addHeld held} keys wait out their hold;
 * {@link #shutdown}, {@link #shutdownWithDrain} and the one {@link #setTimer timer} are as described there.
 * <p>Each key has one entry ({@link QueueEntry}) that says where it is; keys due now wait in one FIFO per priority
 * ({@link DueLines}), only delayed keys in a heap ({@link DelayedKeys}). So the common add, take and done each cost
 * at most one hash lookup; a delay, a LOW key's arrival and the choice between a waiting NORMAL and LOW key read the
 * clock, nothing else does. FIFO order means the head of the LOW line is its oldest key, the only one aging needs
 * to look at.
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

    private final TimeSource time;
    private final Object monitor = new Object();
    private final Map<K, QueueEntry<K>> entries = new HashMap<>();
    private final DueLines<K> ready;
    private final DelayedKeys<K> delayed;
    private int processing;
    private long changes;
    private boolean shutdown;
    /** Shut down to adds, but keys due at {@link #shutdownWithDrain} are still handed out. */
    private boolean draining;
    /** When the timer falls due, or {@code null} when none is set; {@code timerMillis} is it rounded down. */
    private Instant timer;
    private long timerMillis;

    /** A queue without priorities: LOW keys are served as NORMAL at once. */
    public WorkQueue(TimeSource time) {
        this(time, Duration.ZERO);
    }

    /**
     * {@code maxLowPriorityWait}: how long the oldest LOW key may wait while NORMAL keys go first; after that, takes
     * alternate between the two lines until it is served. Zero: no priorities, LOW keys are served as NORMAL at once.
     */
    public WorkQueue(TimeSource time, Duration maxLowPriorityWait) {
        this.time = Objects.requireNonNull(time, "time");
        if (maxLowPriorityWait.isNegative()) {
            throw new IllegalArgumentException("maxLowPriorityWait must not be negative: " + maxLowPriorityWait);
        }
        this.ready = new DueLines<>(time, maxLowPriorityWait.toMillis());
        this.delayed = new DelayedKeys<>(time);
    }

    /** Queues {@code key} to be taken now, at NORMAL priority. */
    public void add(K key) {
        add(key, Duration.ZERO, Priority.NORMAL);
    }

    /** Queues {@code key} to be taken after {@code delay}, at NORMAL priority (see {@link #add(Object, Duration, Priority)}). */
    public void add(K key, Duration delay) {
        add(key, delay, Priority.NORMAL);
    }

    /**
     * Queues {@code key} to be taken after {@code delay}; an earlier due time already queued wins, and so does the
     * higher priority; a held key is not due before its hold ends. No-op once shut down.
     */
    public void add(K key, Duration delay, Priority priority) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(priority, "priority");
        boolean later = delay.compareTo(Duration.ZERO) > 0;
        Instant due = later ? time.clock().instant().plus(delay) : NOW;
        synchronized (monitor) {
            if (shutdown || draining) {
                return;
            }
            QueueEntry<K> entry = entries.computeIfAbsent(key, QueueEntry::new);
            if (entry.notBefore != null && due.isBefore(entry.notBefore)) {
                due = entry.notBefore;
                later = true;
            }
            switch (entry.place) {
                case NEW -> {
                    entry.priority = priority;
                    queue(entry, due, later);
                }
                case PROCESSING -> entry.addAgain(due, priority);
                case DELAYED -> {
                    entry.priority = priority.or(entry.priority);
                    if (due.isBefore(entry.slot.due())) {
                        queue(entry, due, later);
                    }
                }
                case READY -> {
                    if (entry.priority == Priority.LOW && priority == Priority.NORMAL) {
                        ready.raise(entry);
                    }
                }
            }
        }
    }

    /**
     * Queues {@code key} at NORMAL priority after {@code delay} (at least {@code hold}) and holds it: until
     * {@code hold} has passed, no add makes it due sooner, so an event that would re-trigger it waits with it and is
     * served then (a server's {@code Retry-After}). A key due now or delayed less is pushed back to the hold; a key
     * being processed is queued again after {@link #done} no sooner than the hold. No-op once shut down.
     */
    public void addHeld(K key, Duration delay, Duration hold) {
        Objects.requireNonNull(key, "key");
        Instant now = time.clock().instant();
        Instant notBefore = now.plus(hold);
        Instant due = now.plus(delay.compareTo(hold) > 0 ? delay : hold);
        synchronized (monitor) {
            if (shutdown || draining) {
                return;
            }
            QueueEntry<K> entry = entries.computeIfAbsent(key, QueueEntry::new);
            notBefore = entry.holdUntil(notBefore);
            switch (entry.place) {
                case NEW -> {
                    entry.priority = Priority.NORMAL;
                    queue(entry, later(due, notBefore), true);
                }
                case PROCESSING -> {
                    entry.dueAgain = later(earlier(entry.dueAgain, due), notBefore);
                    entry.priorityAgain = Priority.NORMAL;
                }
                case DELAYED -> {
                    entry.priority = Priority.NORMAL;
                    Instant held = later(earlier(entry.slot.due(), due), notBefore);
                    if (!held.equals(entry.slot.due())) {
                        queue(entry, held, true);
                    }
                }
                case READY -> {
                    ready.remove(entry);
                    entry.priority = Priority.NORMAL;
                    queue(entry, later(due, notBefore), true);
                }
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
            long nowMillis = timer == null && delayed.isEmpty() ? 0 : time.clock().millis();
            if (timer != null && delayed.isDue(timer, timerMillis, nowMillis)) {
                timer = null;
                if (ready.size() > 0) {
                    wakeOneTaker(); // the key that woke this taker is left to another
                }
                return null;
            }
            DelayedKeys.Slot<K> head = delayed.isEmpty() ? null : delayed.promoteDue(nowMillis, this::toReady);
            QueueEntry<K> entry = ready.poll();
            if (entry != null) {
                entry.taken();
                processing++;
                if (ready.size() > 0) {
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

    /** Ends the processing of {@code key}; if it was added meanwhile, it is queued again. */
    public void done(K key) {
        synchronized (monitor) {
            doneLocked(key);
        }
    }

    private void doneLocked(K key) {
        QueueEntry<K> entry = entries.remove(key);
        if (entry == null) {
            return;
        }
        if (entry.place != QueueEntry.Place.PROCESSING) {
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
        entry.requeue();
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
            delayed.promoteDue(time.clock().millis(), this::toReady);
            Instant now = time.clock().instant();
            delayed.clear(entry -> entries.remove(entry.key));
            for (QueueEntry<K> entry : entries.values()) {
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

    /** Of the keys due now, those waiting at NORMAL priority. */
    public int normalPriorityDepth() {
        synchronized (monitor) {
            return ready.normalSize();
        }
    }

    /** Of the keys due now, those waiting at LOW priority. */
    public int lowPriorityDepth() {
        synchronized (monitor) {
            return ready.lowSize();
        }
    }

    /** Keys waiting for their due time (retries, requeues, debounced changes). */
    public int delayed() {
        synchronized (monitor) {
            return delayed.size();
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
            QueueEntry<K> entry = entries.get(key);
            if (entry == null || entry.place == QueueEntry.Place.PROCESSING) {
                return null;
            }
            return entry.place == QueueEntry.Place.DELAYED ? entry.slot.due() : time.clock().instant();
        }
    }

    /**
     * Puts a new entry, or a delayed one due at another time now, in the heap if {@code later}, else in the line of
     * its priority.
     */
    private void queue(QueueEntry<K> entry, Instant due, boolean later) {
        if (entry.place == QueueEntry.Place.DELAYED) {
            delayed.unschedule(entry);
        }
        if (later) {
            if (delayed.schedule(entry, due)) {
                wakeOneTaker(); // a taker waiting for a later head waits for this one instead
            }
        } else {
            toReady(entry);
        }
    }

    private void toReady(QueueEntry<K> entry) {
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
