package dev.watchkeeper.reconcile;

import dev.watchkeeper.backoff.RetryAfter;
import dev.watchkeeper.backoff.TimeSource;
import dev.watchkeeper.store.ObjectKey;
import dev.watchkeeper.store.Store;
import dev.watchkeeper.watch.FatalErrors;
import dev.watchkeeper.watch.WatcherGroup;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One reconcile of a key and what follows from its outcome: the failure ledger, a requeue or a retry on the
 * queue, the counts, and the listeners (docs/semantics.md §10). A {@link ReconcileLoop}'s workers
 * call {@link #run} for the keys they take.
 */
final class Reconciliation<T extends KubernetesObject> {

    private static final Logger log = LoggerFactory.getLogger(ReconcileLoop.class);

    private final String name;
    private final WatcherGroup<T> primary;
    private final ReconcileFunction<T> reconciler;
    private final Finalizer<T> finalizer;
    private final ObjectWrites finalizerWrites;
    private final Map<Class<?>, Store<?>> stores;
    private final ApiClient apiClient;
    private final ReconcileObserver observer;
    private final List<ReconcileListener> listeners;
    private final TimeSource time;
    private final WorkQueue<ObjectKey> queue;
    private final FailureLedger ledger;
    private final EventKeys<T> eventKeys;
    /** Added to by every worker after every reconcile, so striped rather than one contended counter. */
    private final LongAdder reconciles = new LongAdder();
    private final AtomicLong errors = new AtomicLong();
    private final AtomicLong requeues = new AtomicLong();
    private final AtomicLong retries = new AtomicLong();
    private final AtomicLong cleanups = new AtomicLong();
    /**
     * When the latest reconcile finished, in epoch milliseconds of the time source's clock ({@link Long#MIN_VALUE}
     * before the first). It and {@link #lastResult} are written only when they change: every worker writes them
     * after every reconcile, and an unchanged value is not worth a write to a shared cache line.
     */
    private volatile long lastReconcileMillis = Long.MIN_VALUE;
    private volatile ReconcileOutcome.Kind lastResult;

    /** {@code finalizer}: {@code null} for none; with one, {@code apiClient} must be set. */
    Reconciliation(String name, WatcherGroup<T> primary, ReconcileFunction<T> reconciler, Finalizer<T> finalizer,
            Map<Class<?>, Store<?>> stores, ApiClient apiClient, ReconcileObserver observer,
            List<ReconcileListener> listeners, TimeSource time, WorkQueue<ObjectKey> queue, FailureLedger ledger,
            EventKeys<T> eventKeys) {
        this.name = name;
        this.primary = primary;
        this.reconciler = reconciler;
        this.finalizer = finalizer;
        this.finalizerWrites = finalizer == null ? null : new ObjectWrites(apiClient, name, primary.type(), time);
        this.stores = stores;
        this.apiClient = apiClient;
        this.observer = observer;
        this.listeners = listeners;
        this.time = time;
        this.queue = queue;
        this.ledger = ledger;
        this.eventKeys = eventKeys;
    }

    /** Totals since start. */
    ReconcilerSnapshot.Counts counts() {
        return new ReconcilerSnapshot.Counts(reconciles.sum(), errors.get(), requeues.get(), retries.get(),
                cleanups.get());
    }

    /** When the latest reconcile finished, or {@code null}. */
    Instant lastReconcileAt() {
        long millis = lastReconcileMillis;
        return millis == Long.MIN_VALUE ? null : Instant.ofEpochMilli(millis);
    }

    /** The latest outcome's word ({@code done}, {@code requeue}, {@code error}, {@code terminal}), or {@code null}. */
    String lastResult() {
        ReconcileOutcome.Kind kind = lastResult;
        return kind == null ? null : kind.word();
    }

    /**
     * Reconciles {@code key}'s cached object, unless it is gone or waits for a change after a terminal error. With
     * a finalizer, an object being deleted is cleaned up instead (and skipped when it does not carry the
     * finalizer), and one without the finalizer gets it before it is reconciled. A reconcile (or cleanup) that
     * throws once {@code interrupted} says its worker's term ended (leadership lost) was cut short, not failed: it
     * leaves no failure, count or backoff, and the key is queued again for the next term.
     */
    void run(ObjectKey key, BooleanSupplier interrupted) {
        Optional<T> cached = primary.store().get(key);
        if (cached.isEmpty()) {
            eventKeys.forget(key);
            return;
        }
        T object = cached.get();
        boolean cleanup = finalizer != null && Finalizer.isDeleting(object);
        if (cleanup && !finalizer.isOn(object)) {
            return; // being deleted without waiting for us: nothing to reconcile or clean up
        }
        String version = object.getMetadata() == null ? null : object.getMetadata().getResourceVersion();
        FailureLedger.Failure failure = ledger.failure(key);
        if (failure != null && failure.waitsForChange(version)) {
            return; // a terminal error waits for the object to change
        }
        int attempt = failure == null ? 1 : failure.nextAttempt();
        boolean failing = failure != null;
        long start = System.nanoTime();
        ReconcileOutcome outcome;
        try {
            outcome = cleanup ? cleanUp(key, attempt, failing, object, start)
                    : reconcile(key, attempt, failing, object, start);
        } catch (Throwable thrown) {
            if (FatalErrors.isFatal(thrown)) {
                finish(fatal(key, attempt, version, cleanup, thrown, start));
                throw (VirtualMachineError) thrown;
            }
            if (interrupted.getAsBoolean()) {
                queue.add(key); // in process: runs again once done, when this replica leads again
                log.debug("reconciler {}: reconcile of {} interrupted by the loss of leadership; left for the next"
                        + " leader: {}", name, key, String.valueOf(thrown));
                return;
            }
            outcome = failed(key, attempt, version, cleanup, thrown, start);
        }
        finish(outcome);
    }

    private ReconcileOutcome reconcile(ObjectKey key, int attempt, boolean failing, T cached, long start)
            throws Exception {
        T object = finalizer == null || finalizer.isOn(cached) ? cached
                : finalizerWrites.addFinalizer(cached, finalizer.name());
        ReconcileContext context = context(key, attempt, object);
        ReconcileResult result = observer.observe(name, key, () -> reconciler.reconcile(object, context));
        return succeeded(key, attempt, failing, result == null ? ReconcileResult.done() : result, false, start);
    }

    /** Runs the cleanup, then removes the finalizer; a failure of either leaves the finalizer for a retry. */
    private ReconcileOutcome cleanUp(ObjectKey key, int attempt, boolean failing, T object, long start)
            throws Exception {
        ReconcileContext context = context(key, attempt, object);
        observer.observe(name, key, () -> {
            finalizer.cleanup().cleanup(object, context);
            return null;
        });
        finalizerWrites.removeFinalizer(object, finalizer.name());
        cleanups.incrementAndGet();
        return succeeded(key, attempt, failing, ReconcileResult.done(), true, start);
    }

    private ReconcileContext context(ObjectKey key, int attempt, T object) {
        return new DefaultReconcileContext(name, key, attempt, apiClient, primary.type(), object, stores, time);
    }

    /** {@code failing}: whether the key had a failure when the reconcile began, so the ledger has one to forget. */
    private ReconcileOutcome succeeded(ObjectKey key, int attempt, boolean failing, ReconcileResult result,
            boolean cleanup, long start) {
        if (failing) {
            ledger.forget(key);
        }
        if (result.isRequeue()) {
            requeues.incrementAndGet();
            queue.add(key, result.requeueAfter());
            return outcome(key, attempt, ReconcileOutcome.Kind.REQUEUE, result.requeueAfter(), cleanup, start, null);
        }
        return outcome(key, attempt, ReconcileOutcome.Kind.DONE, null, cleanup, start, null);
    }


    private ReconcileOutcome failed(ObjectKey key, int attempt, String version, boolean cleanup, Throwable thrown,
            long start) {
        errors.incrementAndGet();
        String what = cleanup ? "cleanup" : "reconcile";
        TerminalReconcileException terminal = terminalIn(thrown);
        if (terminal != null) {
            ledger.terminal(key, attempt, version, terminal);
            log.warn("reconciler {}: {} of {} failed for good, retried when it changes: {}", name, what, key,
                    terminal.getMessage());
            return outcome(key, attempt, ReconcileOutcome.Kind.TERMINAL, null, cleanup, start, terminal);
        }
        Duration delay = ledger.retry(key, attempt, version, thrown, time.clock().instant(), retryAfterIn(thrown));
        queue.add(key, delay);
        log.warn("reconciler {}: {} of {} failed (attempt {}), retrying in {} ms", name, what, key, attempt,
                delay.toMillis(), thrown);
        return outcome(key, attempt, ReconcileOutcome.Kind.ERROR, delay, cleanup, start, thrown);
    }

    /**
     * A fatal error (docs/semantics.md §10): recorded as the key's failure, so the snapshot names it, but not retried;
     * the caller throws it on and the reconciler stops.
     */
    private ReconcileOutcome fatal(ObjectKey key, int attempt, String version, boolean cleanup, Throwable thrown,
            long start) {
        errors.incrementAndGet();
        ledger.retry(key, attempt, version, thrown, time.clock().instant(), null);
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
        reconciles.increment();
        if (outcome.attempt() > 1) {
            retries.incrementAndGet();
        }
        long now = time.clock().millis();
        if (lastReconcileMillis != now) {
            lastReconcileMillis = now;
        }
        if (lastResult != outcome.kind()) {
            lastResult = outcome.kind();
        }
        for (ReconcileListener listener : listeners) {
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

    /**
     * The {@code Retry-After} of an API error anywhere in the cause chain (a write answered 429, say): the retry
     * waits at least that long, as the watchers do.
     */
    private static Duration retryAfterIn(Throwable thrown) {
        Throwable current = thrown;
        for (int depth = 0; current != null && depth < 10; depth++, current = current.getCause()) {
            if (current instanceof ApiException api) {
                return RetryAfter.in(api.getResponseHeaders());
            }
        }
        return null;
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
