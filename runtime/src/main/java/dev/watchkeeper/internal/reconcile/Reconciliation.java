package dev.watchkeeper.internal.reconcile;

import dev.watchkeeper.internal.api.ApiErrors;
import dev.watchkeeper.reconcile.ReconcileContext;
import dev.watchkeeper.reconcile.ReconcileResult;
import dev.watchkeeper.reconcile.ReconcilerSnapshot;
import dev.watchkeeper.reconcile.TerminalReconcileException;
import dev.watchkeeper.store.CachedObject;
import dev.watchkeeper.store.ObjectKey;
import dev.watchkeeper.internal.watch.FatalErrors;
import io.kubernetes.client.common.KubernetesObject;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One reconcile of a key and what follows from its outcome: a requeue, a retry or a recorded failure on the
 * {@link ReconcileQueue}, the counts, and the listeners (docs/semantics.md §10). A {@link Reconciler}'s workers
 * call {@link #run} for the keys they take.
 */
final class Reconciliation<T extends KubernetesObject> {

    private static final Logger log = LoggerFactory.getLogger(Reconciler.class);

    private final ReconcileScope<T> scope;
    private final String name;
    private final UserCode<T> code;
    private final Finalizer<T> finalizer;
    /** {@code null} without a finalizer. */
    private final ObjectWrites finalizerWrites;
    private final ReconcileQueue queue;
    private final EventKeys<T> eventKeys;
    private final ReconcileConditions conditions;
    private final ReadYourWrites fence;
    private final ReconcileDeadlines deadlines;
    private final ReconcileStats stats = new ReconcileStats();

    /**
     * With a finalizer in {@code code}, {@code scope} must have an API client; {@code statusConditions}: whether
     * reconciles report their outcome in the object's conditions (where its status can hold them); {@code fence}
     * holds back keys whose cache has not caught up with their own writes; {@code deadlines}: the timeout of each
     * reconcile and cleanup.
     */
    Reconciliation(ReconcileScope<T> scope, UserCode<T> code, ReconcileQueue queue, EventKeys<T> eventKeys,
            boolean statusConditions, ReadYourWrites fence, ReconcileDeadlines deadlines) {
        this.scope = scope;
        this.name = scope.name();
        this.code = code;
        this.finalizer = code.finalizer();
        this.finalizerWrites = finalizer == null ? null : scope.writes();
        this.queue = queue;
        this.eventKeys = eventKeys;
        this.conditions = new ReconcileConditions(scope, statusConditions);
        this.fence = fence;
        this.deadlines = deadlines;
    }

    /** Totals since start and the latest outcome. */
    ReconcileStats stats() {
        return stats;
    }

    /** The read-your-own-writes fence's state, {@code null} when it is off. */
    ReconcilerSnapshot.ReadYourWrites readYourWrites() {
        return fence.snapshot();
    }

    /**
     * Reconciles {@code key}'s cached object, unless it is gone, waits for a change after a terminal error, or waits
     * for its own writes to reach the cache ({@link ReadYourWrites}, which queues it again). With
     * a finalizer, an object being deleted is cleaned up instead (and skipped when it does not carry the
     * finalizer), and one without the finalizer gets it before it is reconciled. A reconcile (or cleanup) that
     * throws once {@code interrupted} says its worker's term ended (leadership lost) or its slot was given up
     * (sharding) was cut short, not failed: it leaves no failure, count or backoff, and the key is queued again. One
     * that runs past the timeout is interrupted and fails as {@link ReconcileOutcome.Kind#TIMEOUT timed out}.
     */
    void run(ObjectKey key, BooleanSupplier interrupted) {
        if (!fence.admit(key)) {
            return; // queued again: runs once the watchers delivered its own writes, or the wait timed out
        }
        Optional<T> cached = scope.primary().store().get(key); // read after the fence, so it holds those writes
        if (cached.isEmpty()) {
            notInStore(key, null, interrupted);
            return;
        }
        runOn(key, cached.get(), interrupted);
    }

    /**
     * {@code key}'s object is not in the primary store: released if it left the watch carrying the finalizer (as the
     * object {@code uid}, unless that is {@code null}), else forgotten.
     */
    private void notInStore(ObjectKey key, String uid, BooleanSupplier interrupted) {
        fence.forget(key);
        CachedObject<T> left = eventKeys.leftWithFinalizer(key);
        if (left == null || left.object() == null || uid != null && !uid.equals(left.uid())) {
            eventKeys.forget(key);
            return;
        }
        ReconcileDeadlines.Deadline deadline = deadlines.start(key);
        try {
            release(key, left.object(), interrupted, deadline);
        } finally {
            deadline.end();
        }
    }

    /**
     * {@code left} left the primary watcher carrying the finalizer (a label or field no longer matches, or a relist
     * did not find it): this reconciler will not see its deletion, so unless the finalizer went meanwhile, the
     * cleanup runs now and the finalizer is removed, as if it were deleted, rather than leaving it stuck
     * {@code Terminating} on its deletion. A failure retries with the key's backoff; one once {@code interrupted}
     * was cut short, as a reconcile's.
     */
    private void release(ObjectKey key, T left, BooleanSupplier interrupted, ReconcileDeadlines.Deadline deadline) {
        long start = System.nanoTime();
        FailureLedger.Failure failure = queue.failure(key);
        int attempt = failure == null ? 1 : failure.nextAttempt();
        ReconcileOutcome outcome;
        try {
            T current = finalizerWrites.read(left);
            if (current == null || !finalizer.isOn(current)) {
                eventKeys.forget(key); // deleted, or its finalizer already gone
                return;
            }
            ReconcileContext context = scope.context(key, attempt, current);
            observe(key, deadline, () -> {
                finalizer.cleanup().cleanup(current, context);
                return null;
            });
            finalizerWrites.removeFinalizer(current, finalizer.name());
            log.info("reconciler {}: {} left its watch still carrying the finalizer {}; cleaned up and released it",
                    name, key, finalizer.name());
            eventKeys.forget(key);
            outcome = succeeded(key, attempt, failure != null, ReconcileResult.done(), true, start);
        } catch (Throwable thrown) {
            if (FatalErrors.isFatal(thrown)) {
                throw (VirtualMachineError) thrown;
            }
            boolean timedOut = deadline.end();
            if (interrupted.getAsBoolean()) {
                queue.add(key); // in process: runs again once done, if this replica leads and owns its slot then
                log.debug("reconciler {}: release of {} cut short (leadership lost, its slot given up, or shutdown);"
                        + " queued again: {}", name, key, String.valueOf(thrown));
                return;
            }
            outcome = failed(key, attempt, left.getMetadata().getResourceVersion(), true,
                    timedOut ? timeoutOf(thrown) : thrown, start);
        }
        finish(outcome);
    }

    /**
     * {@link #run} for a sharded reconciler's key, admitted for the object {@code uid}: if the store holds another
     * object under the key by now (deleted and created again), whose slot may not be active, the key is queued
     * again to be admitted afresh, and nothing runs. An object that left the watch carrying the finalizer is
     * released only if it left as the object {@code uid}.
     */
    void runAdmitted(ObjectKey key, String uid, BooleanSupplier interrupted) {
        if (!fence.admit(key)) {
            return;
        }
        Optional<T> cached = scope.primary().store().get(key);
        if (cached.isEmpty()) {
            notInStore(key, uid, interrupted);
            return;
        }
        T object = cached.get();
        if (!Objects.equals(uid, object.getMetadata().getUid())) {
            queue.add(key);
            return;
        }
        runOn(key, object, interrupted);
    }

    private void runOn(ObjectKey key, T object, BooleanSupplier interrupted) {
        ReconcileDeadlines.Deadline deadline = deadlines.start(key);
        try {
            runOn(key, object, interrupted, deadline);
        } finally {
            deadline.end();
        }
    }

    private void runOn(ObjectKey key, T object, BooleanSupplier interrupted, ReconcileDeadlines.Deadline deadline) {
        boolean cleanup = finalizer != null && Finalizer.isDeleting(object);
        if (cleanup && !finalizer.isOn(object)) {
            return; // being deleted without waiting for us: nothing to reconcile or clean up
        }
        String version = object.getMetadata() == null ? null : object.getMetadata().getResourceVersion();
        FailureLedger.Failure failure = queue.failure(key);
        if (failure != null && failure.waitsForChange(version)) {
            return; // a terminal error waits for the object to change
        }
        int attempt = failure == null ? 1 : failure.nextAttempt();
        boolean failing = failure != null;
        long start = System.nanoTime();
        Handed<T> handed = new Handed<>(object);
        ReconcileOutcome outcome;
        try {
            outcome = cleanup ? cleanUp(key, attempt, failing, object, start, deadline)
                    : reconcile(key, attempt, failing, handed, start, deadline);
        } catch (Throwable caught) {
            // ended first: it clears the timer's interrupt, which would fail the writes of the failure
            Throwable thrown = deadline.end() ? timeoutOf(caught) : caught;
            if (FatalErrors.isFatal(thrown)) {
                finish(fatal(key, attempt, version, cleanup, thrown, start));
                throw (VirtualMachineError) thrown;
            }
            if (interrupted.getAsBoolean()) {
                queue.add(key); // in process: runs again once done, if this replica leads and owns its slot then
                log.debug("reconciler {}: reconcile of {} cut short (leadership lost, its slot given up, or shutdown);"
                        + " queued again: {}", name, key, String.valueOf(thrown));
                return;
            }
            // The failure goes on the object's conditions first: a terminal one then waits for a change by someone
            // else, not for the version this write makes.
            String left = cleanup ? version : conditions.failed(handed.object, handed.latest(), thrown,
                    terminalIn(thrown), version);
            outcome = failed(key, attempt, left, cleanup, thrown, start);
        }
        finish(outcome);
    }

    private ReconcileOutcome reconcile(ObjectKey key, int attempt, boolean failing, Handed<T> handed, long start,
            ReconcileDeadlines.Deadline deadline) throws Exception {
        T cached = handed.object;
        T object = finalizer == null || finalizer.isOn(cached) ? cached
                : finalizerWrites.addFinalizer(cached, finalizer.name());
        DefaultReconcileContext context = scope.context(key, attempt, object);
        handed.object = object;
        handed.context = context;
        ReconcileResult result = observe(key, deadline, () -> code.reconcile().reconcile(object, context));
        conditions.succeeded(object, context.latestPrimary(), context.conditionsTouched());
        return succeeded(key, attempt, failing, result == null ? ReconcileResult.done() : result, false, start);
    }

    /**
     * The object a reconcile is handed (after the finalizer was added, if it was) and its context once made: what
     * the conditions after a failure are written from, at the generation of that object.
     */
    private static final class Handed<T extends KubernetesObject> {

        T object;
        DefaultReconcileContext context;

        Handed(T object) {
            this.object = object;
        }

        /** The newest copy of the object the reconcile wrote, else the one it was handed. */
        KubernetesObject latest() {
            return context == null ? object : context.latestPrimary();
        }
    }

    /** Runs the cleanup, then removes the finalizer; a failure of either leaves the finalizer for a retry. */
    private ReconcileOutcome cleanUp(ObjectKey key, int attempt, boolean failing, T object, long start,
            ReconcileDeadlines.Deadline deadline) throws Exception {
        ReconcileContext context = scope.context(key, attempt, object);
        observe(key, deadline, () -> {
            finalizer.cleanup().cleanup(object, context);
            return null;
        });
        finalizerWrites.removeFinalizer(object, finalizer.name());
        return succeeded(key, attempt, failing, ReconcileResult.done(), true, start);
    }

    /**
     * Runs {@code call} inside the observer; what it throws once its deadline expired is a
     * {@link ReconcileTimeoutException}, so the observer sees the timeout, not the interrupt it caused. The deadline
     * ends when {@code call} returns: a reconcile that returns, even after the interrupt, succeeded, and the writes
     * that follow it (conditions, the finalizer's removal) are bounded by the client's timeouts.
     */
    private <R> R observe(ObjectKey key, ReconcileDeadlines.Deadline deadline, Callable<R> call) throws Exception {
        return code.observer().observe(name, key, () -> {
            try {
                R result = call.call();
                deadline.end();
                return result;
            } catch (Exception e) {
                if (deadline.expired()) {
                    throw deadlines.timedOut(e);
                }
                throw e;
            }
        });
    }

    /** {@code thrown} as a timeout, unless it is one already or fatal. */
    private Throwable timeoutOf(Throwable thrown) {
        return thrown instanceof ReconcileTimeoutException || FatalErrors.isFatal(thrown) ? thrown
                : deadlines.timedOut(thrown);
    }

    /** {@code failing}: whether the key had a failure when the reconcile began, so the ledger has one to forget. */
    private ReconcileOutcome succeeded(ObjectKey key, int attempt, boolean failing, ReconcileResult result,
            boolean cleanup, long start) {
        if (failing) {
            queue.forget(key);
        }
        if (result.isRequeue()) {
            queue.addAfter(key, result.requeueAfter());
            return outcome(key, attempt, ReconcileOutcome.Kind.REQUEUE, result.requeueAfter(), cleanup, start, null);
        }
        return outcome(key, attempt, ReconcileOutcome.Kind.DONE, null, cleanup, start, null);
    }

    private ReconcileOutcome failed(ObjectKey key, int attempt, String version, boolean cleanup, Throwable thrown,
            long start) {
        String what = cleanup ? "cleanup" : "reconcile";
        TerminalReconcileException terminal = terminalIn(thrown);
        if (terminal != null) {
            queue.failTerminally(key, attempt, version, terminal);
            log.warn("reconciler {}: {} of {} failed for good, retried when it changes: {}", name, what, key,
                    terminal.getMessage());
            return outcome(key, attempt, ReconcileOutcome.Kind.TERMINAL, null, cleanup, start, terminal);
        }
        Duration delay = queue.addRateLimited(key, attempt, version, thrown);
        if (thrown instanceof ReconcileTimeoutException) {
            log.warn("reconciler {}: {} of {} {} (attempt {}), retrying in {} ms", name, what, key,
                    thrown.getMessage(), attempt, delay.toMillis());
            return outcome(key, attempt, ReconcileOutcome.Kind.TIMEOUT, delay, cleanup, start, thrown);
        }
        boolean apiFailure = ApiErrors.apiFailure(thrown) != null;
        if (attempt == 1 && !apiFailure) {
            // the trace once, where it points into the user's code; retries and API answers say it in one line
            log.warn("reconciler {}: {} of {} failed (attempt 1), retrying in {} ms", name, what, key,
                    delay.toMillis(), thrown);
        } else {
            log.warn("reconciler {}: {} of {} failed (attempt {}), retrying in {} ms: {}", name, what, key, attempt,
                    delay.toMillis(), ApiErrors.describe(thrown));
            log.debug("reconciler {}: {} of {} failed (attempt {})", name, what, key, attempt, thrown);
        }
        return outcome(key, attempt, ReconcileOutcome.Kind.ERROR, delay, cleanup, start, thrown);
    }

    /**
     * A fatal error (docs/semantics.md §10): recorded as the key's failure, so the snapshot names it, but not retried;
     * the caller throws it on and the reconciler stops.
     */
    private ReconcileOutcome fatal(ObjectKey key, int attempt, String version, boolean cleanup, Throwable thrown,
            long start) {
        queue.failFatally(key, attempt, version, thrown);
        log.error("reconciler {} stops: the {} of {} threw {}", name, cleanup ? "cleanup" : "reconcile", key,
                thrown.getClass().getName(), thrown);
        return outcome(key, attempt, ReconcileOutcome.Kind.ERROR, null, cleanup, start, thrown);
    }

    private ReconcileOutcome outcome(ObjectKey key, int attempt, ReconcileOutcome.Kind kind, Duration next,
            boolean cleanup, long start, Throwable error) {
        return new ReconcileOutcome(name, key, attempt, kind, next, Duration.ofNanos(System.nanoTime() - start),
                error, cleanup);
    }

    private void finish(ReconcileOutcome outcome) {
        stats.record(outcome, scope.time().clock().millis());
        for (ReconcileListener listener : code.listeners()) {
            try {
                listener.onReconcile(outcome);
            } catch (Throwable thrown) {
                if (FatalErrors.isFatal(thrown)) {
                    throw thrown;
                }
                log.error("reconciler {}: a reconcile listener failed", name, thrown);
            }
        }
    }

    /** A terminal exception anywhere in the cause chain counts: observers and proxies may wrap it. */
    private static TerminalReconcileException terminalIn(Throwable thrown) {
        Throwable current = thrown;
        for (int depth = 0; current != null && depth < 10; depth++, current = current.getCause()) {
            if (current instanceof TerminalReconcileException terminal) {
                return terminal;
            }
        }
        return null;
    }
}
