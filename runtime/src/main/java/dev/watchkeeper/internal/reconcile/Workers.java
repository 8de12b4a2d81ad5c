package dev.watchkeeper.internal.reconcile;

import dev.watchkeeper.store.ObjectKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A reconciler's worker threads, in terms: {@link #startTerm} starts {@code concurrency} workers that take keys from
 * the {@link ReconcileQueue} and reconcile them; {@link #endTerm} (a lost Lease) interrupts them, and a key a worker
 * holds when its term ends goes back to the queue for the next term. Knows the key each worker reconciles, so a
 * reconcile that ignores its interrupt, at a stop or past its timeout, is logged and shown by its key
 * ({@link #stuckKeys}) until it returns.
 */
final class Workers {

    private static final Logger log = LoggerFactory.getLogger(Reconciler.class);

    /** The key one worker is reconciling, {@code null} between reconciles, and whether it ignored an interrupt. */
    private static final class CurrentKey {
        volatile ObjectKey key;
        volatile boolean stuck;
    }

    private final String name;
    private final int concurrency;
    private final ThreadFactory threadFactory;
    private final ReconcileQueue queue;
    private final Reconciliation<?> reconciliation;
    /** The slots a sharded reconciler reconciles, or {@code null} when it is not sharded. */
    private final ActiveSlots<?> slots;
    /** Told when a worker met a fatal error, before the worker throws it on. */
    private final Runnable onFatal;

    private final List<Thread> threads = new ArrayList<>();
    /**
     * The key each worker is reconciling; a worker registers once and then only writes its own {@link CurrentKey},
     * so a reconcile touches no shared map.
     */
    private final Map<Thread, CurrentKey> reconciling = new ConcurrentHashMap<>();
    private volatile long term;

    /** {@code slots}: {@code null} for a reconciler that is not sharded. */
    Workers(String name, int concurrency, ThreadFactory threadFactory, ReconcileQueue queue,
            Reconciliation<?> reconciliation, ActiveSlots<?> slots, Runnable onFatal) {
        this.name = name;
        this.concurrency = concurrency;
        this.threadFactory = threadFactory;
        this.queue = queue;
        this.reconciliation = reconciliation;
        this.slots = slots;
        this.onFatal = onFatal;
    }

    /**
     * Starts a term of workers. They wait for {@code ready} (every store synced), then work; if {@code stopped}
     * completes first, they end without reconciling anything, not even in a drain.
     */
    synchronized void startTerm(CompletableFuture<Void> ready, CompletableFuture<Void> stopped) {
        long current = term;
        for (int i = 1; i <= concurrency; i++) {
            Thread worker = threadFactory.newThread(() -> work(current, ready, stopped));
            worker.setName("watchkeeper-" + name + "-worker-" + i);
            threads.add(worker);
            worker.start();
        }
    }

    /** Ends the current term without waiting: its workers are interrupted and take no further key. */
    synchronized void endTerm() {
        term++;
        threads.forEach(Thread::interrupt);
    }

    /** The workers started and not yet seen to end. */
    synchronized List<Thread> threads() {
        return List.copyOf(threads);
    }

    /** Whether any worker is alive. */
    synchronized boolean isRunning() {
        return threads.stream().anyMatch(Thread::isAlive);
    }

    /**
     * Waits up to {@code wait} for every worker to end, and logs those still running.
     *
     * @return whether none is left
     */
    boolean awaitEnded(Duration wait) {
        List<Thread> ending = threads();
        joinAll(ending, wait);
        reportIgnoredInterrupts(ending, wait);
        synchronized (this) {
            threads.removeIf(t -> !t.isAlive());
            return threads.isEmpty();
        }
    }

    /**
     * Ends the term and interrupts those of {@code running} still alive after the grace of {@code waited} (a reconcile
     * that then throws was cut short by the shutdown, not failed: no error, no retry, no stack trace), waits
     * {@code more} for them, and logs those that still run.
     */
    void interrupt(List<Thread> running, Duration waited, Duration more) {
        synchronized (this) {
            term++;
        }
        running.stream().filter(Thread::isAlive).forEach(Thread::interrupt);
        joinAll(running, more);
        reportIgnoredInterrupts(running, waited.plus(more));
    }

    /** Keys of reconciles that ignored their interrupt and still run, sorted. */
    List<String> stuckKeys() {
        return reconciling.values().stream().filter(current -> current.stuck).map(current -> current.key)
                .filter(Objects::nonNull).map(ObjectKey::toString).sorted().toList();
    }

    /**
     * Logs, and shows in {@link #stuckKeys} until it returns, the reconcile on {@code worker} that ran past its
     * timeout and ignored the interrupt for {@code waited}. The worker is not replaced: the key stays in process, so
     * no other worker reconciles it meanwhile, and the reconciler runs with one worker fewer until it returns; it then
     * counts as timed out and is retried, unless it returned normally.
     */
    void reportStuck(Thread worker, Duration waited) {
        CurrentKey current = reconciling.get(worker);
        if (current == null || current.key == null) {
            return;
        }
        current.stuck = true;
        long stuck = reconciling.values().stream().filter(c -> c.stuck).count();
        log.error("reconciler {}: the reconcile of {} ignored the interrupt of its timeout and still runs after {} ms"
                + " on thread {}; its key waits for it, and {} of {} workers are stuck", name, current.key,
                waited.toMillis(), worker.getName(), stuck, concurrency);
    }

    /** Joins each thread, all within {@code wait}; an interrupted caller stops waiting but keeps its flag. */
    static void joinAll(List<Thread> threads, Duration wait) {
        long deadlineNanos = System.nanoTime() + wait.toNanos();
        for (Thread thread : threads) {
            long remaining = deadlineNanos - System.nanoTime();
            if (remaining <= 0) {
                return;
            }
            try {
                thread.join(Math.max(1, remaining / 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Logs, and remembers for {@link #stuckKeys}, the workers among {@code threads} alive after {@code waited}. */
    private void reportIgnoredInterrupts(List<Thread> threads, Duration waited) {
        for (Thread thread : threads) {
            if (thread.isAlive()) {
                CurrentKey current = reconciling.get(thread);
                if (current != null) {
                    current.stuck = true;
                }
                ObjectKey key = reconcilingOn(thread);
                log.warn("reconciler {}: the reconcile of {} ignored its interrupt and still runs after {} ms; it is"
                        + " left running on thread {}", name, key == null ? "no key" : key, waited.toMillis(),
                        thread.getName());
            }
        }
    }

    /** The key {@code thread} is reconciling, or {@code null}. */
    private ObjectKey reconcilingOn(Thread thread) {
        CurrentKey current = reconciling.get(thread);
        return current == null ? null : current.key;
    }

    /**
     * Reconciles {@code key} of a sharded reconciler if its slot is active; otherwise it is dropped. A reconcile that
     * throws once its term ended or its slot was given up was cut short.
     */
    private void runIfActive(ObjectKey key, BooleanSupplier termEnded) {
        ActiveSlots.Admitted admitted = slots.admit(key);
        if (admitted == null) {
            return;
        }
        try {
            reconciliation.runAdmitted(key, admitted.uid,
                    () -> termEnded.getAsBoolean() || !slots.isActive(admitted));
        } finally {
            slots.finish(admitted); // clears a drain's interrupt; the worker then reads its term, so an end is seen
        }
    }

    private void work(long myTerm, CompletableFuture<Void> ready, CompletableFuture<Void> stopped) {
        CurrentKey current = new CurrentKey();
        reconciling.put(Thread.currentThread(), current);
        BooleanSupplier termEnded = () -> term != myTerm;
        try {
            CompletableFuture.anyOf(ready, stopped).get();
            if (!ready.isDone()) {
                return; // stopped before the stores were ready: nothing may be reconciled, not even in a drain
            }
            ObjectKey key = queue.take();
            while (key != null) {
                if (term != myTerm) { // the term ended while taking: the key waits for the next term
                    queue.add(key);
                    queue.done(key);
                    return;
                }
                current.key = key;
                try {
                    if (slots == null) {
                        reconciliation.run(key, termEnded);
                    } else {
                        runIfActive(key, termEnded);
                    }
                } catch (Throwable thrown) {
                    queue.done(key);
                    throw thrown;
                } finally {
                    current.key = null;
                    current.stuck = false;
                }
                if (term != myTerm) {
                    queue.done(key);
                    return;
                }
                key = queue.doneAndTake(key); // one lock for both: the queue's busiest path
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            log.error("reconciler {}: readiness failed", name, e);
        } catch (VirtualMachineError fatal) {
            // Only fatal errors get here (Reconciliation keeps the rest): no worker goes on as if nothing happened.
            onFatal.run();
            throw fatal;
        } finally {
            reconciling.remove(Thread.currentThread());
        }
    }
}
