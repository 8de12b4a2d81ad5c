package dev.watchkeeper.internal.reconcile;

import dev.watchkeeper.internal.backoff.TimeSource;
import dev.watchkeeper.store.ObjectKey;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A reconciler's reconcile timeout (docs/semantics.md, "Reconcile timeout"): one timer thread for all its workers,
 * started with the first reconcile, which interrupts a worker whose reconcile runs past the timeout and, when it
 * still runs {@code afterInterrupt} later, hands it to {@link Stuck} to be reported as stuck. Without a timeout,
 * {@link #none()}: no thread, and deadlines that never expire.
 *
 * <p>The timer waits through the {@link TimeSource}, so tests move a virtual clock instead of sleeping.
 */
final class ReconcileDeadlines {

    private static final Logger log = LoggerFactory.getLogger(Reconciler.class);

    /** Told of a worker whose reconcile ignored the timeout's interrupt for {@code waited}. */
    @FunctionalInterface
    interface Stuck {
        void report(Thread worker, Duration waited);
    }

    private static final ReconcileDeadlines NONE = new ReconcileDeadlines();

    private final String name;
    private final Duration timeout;
    private final Duration afterInterrupt;
    private final TimeSource time;
    private final ThreadFactory threads;
    private final Stuck stuck;
    private final Object lock = new Object();
    /** The reconciles running now: no more than the workers, so a scan is cheap. */
    private final List<Deadline> running = new ArrayList<>();
    private Thread timer;
    private boolean closed;

    ReconcileDeadlines(String name, Duration timeout, Duration afterInterrupt, TimeSource time,
            ThreadFactory threads, Stuck stuck) {
        if (timeout.isZero() || timeout.isNegative()) {
            throw new IllegalArgumentException("a reconcile timeout must be positive, was " + timeout);
        }
        this.name = name;
        this.timeout = timeout;
        this.afterInterrupt = afterInterrupt;
        this.time = time;
        this.threads = threads;
        this.stuck = stuck;
    }

    private ReconcileDeadlines() {
        this.name = null;
        this.timeout = null;
        this.afterInterrupt = null;
        this.time = null;
        this.threads = null;
        this.stuck = null;
    }

    /** No timeout: reconciles run as long as they take. */
    static ReconcileDeadlines none() {
        return NONE;
    }

    /** The deadline of a reconcile of {@code key} that the calling thread starts now. */
    Deadline start(ObjectKey key) {
        if (this == NONE) {
            return Deadline.NEVER;
        }
        synchronized (lock) {
            Deadline deadline = new Deadline(this, Thread.currentThread(), key, time.clock().instant().plus(timeout));
            running.add(deadline);
            if (timer == null && !closed) {
                timer = threads.newThread(this::run);
                timer.setName("watchkeeper-" + name + "-timeouts");
                timer.start();
            }
            lock.notifyAll(); // a timer with nothing to time waits for this
            return deadline;
        }
    }

    /** Ends the timer thread; reconciles that run on are no longer timed. */
    void close() {
        if (this == NONE) {
            return;
        }
        synchronized (lock) {
            closed = true;
            running.clear();
            lock.notifyAll();
        }
    }

    /** What a reconcile that ran past its deadline counts as, carrying what it threw. */
    ReconcileTimeoutException timedOut(Throwable thrown) {
        return new ReconcileTimeoutException(timeout, thrown);
    }

    private void run() {
        synchronized (lock) {
            try {
                while (!closed) {
                    Instant now = time.clock().instant();
                    Instant next = expire(now);
                    if (next == null) {
                        lock.wait(); // nothing to time: a start or close wakes us
                    } else {
                        time.await(lock, Duration.between(now, next), () -> closed);
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt(); // only a close of the whole JVM interrupts us
            }
        }
    }

    /** Interrupts and reports what is due at {@code now}; returns when the next deadline falls, {@code null}: none. */
    private Instant expire(Instant now) {
        Instant next = null;
        for (Deadline deadline : running) {
            if (!deadline.interrupted && !deadline.due.isAfter(now)) {
                deadline.interrupted = true;
                log.warn("reconciler {}: the reconcile of {} ran past its timeout of {} ms; interrupting thread {}",
                        name, deadline.key, timeout.toMillis(), deadline.worker.getName());
                deadline.worker.interrupt();
            }
            if (deadline.interrupted && !deadline.reportedStuck && !deadline.stuckAt().isAfter(now)) {
                deadline.reportedStuck = true;
                stuck.report(deadline.worker, timeout.plus(afterInterrupt));
            }
            Instant at = !deadline.interrupted ? deadline.due : deadline.reportedStuck ? null : deadline.stuckAt();
            if (at != null && (next == null || at.isBefore(next))) {
                next = at;
            }
        }
        return next;
    }

    /** One reconcile's deadline. */
    static final class Deadline {

        static final Deadline NEVER = new Deadline(null, null, null, null);

        private final ReconcileDeadlines owner;
        private final Thread worker;
        private final ObjectKey key;
        private final Instant due;
        /** Written under the owner's lock. */
        private boolean interrupted;
        private boolean reportedStuck;
        private boolean ended;

        private Deadline(ReconcileDeadlines owner, Thread worker, ObjectKey key, Instant due) {
            this.owner = owner;
            this.worker = worker;
            this.key = key;
            this.due = due;
        }

        private Instant stuckAt() {
            return due.plus(owner.afterInterrupt);
        }

        /** Whether the timer interrupted this reconcile. */
        boolean expired() {
            if (owner == null) {
                return false;
            }
            synchronized (owner.lock) {
                return interrupted;
            }
        }

        /**
         * Ends the deadline, on the thread that started it: the timer no longer interrupts it, and an interrupt it
         * made is cleared, so the failure can be written and the worker takes its next key.
         *
         * @return whether the reconcile ran past its timeout, on the call that ends the deadline; {@code false} on
         *         later calls, so a failure after the timed code ended is no timeout
         */
        boolean end() {
            if (owner == null) {
                return false;
            }
            synchronized (owner.lock) {
                if (ended) {
                    return false;
                }
                ended = true;
                owner.running.remove(this);
                if (interrupted) {
                    Thread.interrupted();
                }
                return interrupted;
            }
        }
    }
}
