package dev.watchkeeper.internal.reconcile;

import dev.watchkeeper.internal.api.ApiErrors;
import dev.watchkeeper.reconcile.ReconcilerSnapshot;
import dev.watchkeeper.reconcile.TerminalReconcileException;
import dev.watchkeeper.internal.backoff.TimeSource;
import dev.watchkeeper.store.ObjectKey;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.function.DoubleSupplier;

/**
 * A reconciler's one queue of keys and the failures that delay them: client-go's rate-limiting workqueue, with its
 * verbs, over a {@link WorkQueue} and a {@link FailureLedger} that nobody else touches (docs/semantics.md §9, §10).
 *
 * <ul>
 *   <li>{@link #add}, {@link #addAfter}: queue a key now or later (events, requeues, resyncs), at a
 *       {@link Priority};</li>
 *   <li>{@link #addRateLimited}: record a failed attempt and queue its retry after the per-object backoff, the rate
 *       limit's token and the server's {@code Retry-After}, whichever is longest; {@link #forget} clears both. A
 *       {@code Retry-After} also holds the key: nothing reconciles it sooner, not even an event;</li>
 *   <li>{@link #failTerminally}, {@link #failFatally}: record a failure that is not retried;</li>
 *   <li>{@link #take}, {@link #done}, {@link #doneAndTake}: a worker's side;</li>
 *   <li>{@link #shutDown}, {@link #shutDownWithDrain}.</li>
 * </ul>
 *
 * <p>The periodic resync is the queue's {@link WorkQueue#setTimer timer}, not a queued key: a taker that finds it
 * due runs the resync (which adds every primary key) and takes on, so no thread waits for it and no count leaves it
 * out. Each resync is due the period times a jitter factor in [0.9, 1.1) after the previous one.
 */
final class ReconcileQueue {

    private final WorkQueue<ObjectKey> queue;
    private final FailureLedger ledger;
    private final TimeSource time;
    private final Duration resyncPeriod;
    /** Values in [0, 1) that place each resync in its jitter window. */
    private final DoubleSupplier jitter;
    /** Set once by {@link #startResyncs}; read by the taker that finds a resync due. */
    private volatile Runnable resync;

    /** {@code jitter}: values in [0, 1) that spread the resyncs over ±10 % of their period. */
    ReconcileQueue(TimeSource time, ReconcilerSettings settings, DoubleSupplier jitter) {
        this.time = time;
        this.queue = new WorkQueue<>(time, settings.maxLowPriorityWait());
        this.ledger = new FailureLedger(settings.backOffPolicy(), settings.rateLimit());
        this.resyncPeriod = settings.resyncPeriod();
        this.jitter = Objects.requireNonNull(jitter, "jitter");
    }

    /** Queues {@code key} to be taken now, at NORMAL priority. */
    void add(ObjectKey key) {
        queue.add(key);
    }

    /** Queues {@code key} to be taken now at {@code priority}; a key already queued keeps the higher one. */
    void add(ObjectKey key, Priority priority) {
        queue.add(key, Duration.ZERO, priority);
    }

    /** Queues {@code key} to be taken after {@code delay}, at NORMAL priority; an earlier due time already queued wins. */
    void addAfter(ObjectKey key, Duration delay) {
        queue.add(key, delay);
    }

    /** {@link #addAfter(ObjectKey, Duration)} at {@code priority}. */
    void addAfter(ObjectKey key, Duration delay, Priority priority) {
        queue.add(key, delay, priority);
    }

    /**
     * Records that attempt {@code attempt} at {@code key} (at {@code resourceVersion}) failed with {@code error}, and
     * queues its retry after the longest of the key's next backoff, the wait for a token of the rate limit and the
     * {@code Retry-After} of an API error in the cause chain. With a {@code Retry-After} the key is also held that
     * long: an event meanwhile (its own write's owned object, say) keeps it queued but does not bring the retry
     * forward, since the server asked for the pause.
     *
     * @return how long the retry waits
     */
    Duration addRateLimited(ObjectKey key, int attempt, String resourceVersion, Throwable error) {
        Duration retryAfter = ApiErrors.retryAfter(error);
        Duration delay = ledger.retry(key, attempt, resourceVersion, error, time.clock().instant(), retryAfter);
        if (retryAfter == null) {
            queue.add(key, delay);
        } else {
            queue.addHeld(key, delay, retryAfter);
        }
        return delay;
    }

    /** Records a failure that is retried only once the object changes from {@code resourceVersion}. */
    void failTerminally(ObjectKey key, int attempt, String resourceVersion, TerminalReconcileException error) {
        ledger.terminal(key, attempt, resourceVersion, error);
    }

    /** Records a fatal failure, so snapshots name it; nothing is queued: the reconciler stops. */
    void failFatally(ObjectKey key, int attempt, String resourceVersion, Throwable error) {
        ledger.retry(key, attempt, resourceVersion, error, time.clock().instant(), null);
    }

    /** {@code key}'s latest failure, or {@code null} when it has none. */
    FailureLedger.Failure failure(ObjectKey key) {
        return ledger.failure(key);
    }

    /** Forgets {@code key}'s failure and backoff (after a success or a delete); its queued retry stays. */
    void forget(ObjectKey key) {
        ledger.forget(key);
    }

    /** Forgets every failure and queues each failing key (terminal ones too) now, with its backoff started over. */
    void retryFailingNow() {
        ledger.forgetAll().forEach(queue::add);
    }

    /**
     * Takes the next key, waiting until one is due and running a resync that falls due meanwhile. The key counts as
     * processing until {@link #done}.
     *
     * @return the key, or {@code null} once shut down (or drained)
     * @throws InterruptedException when the calling thread is interrupted while waiting
     */
    ObjectKey take() throws InterruptedException {
        return orResync(queue.take());
    }

    /** {@link #done} for {@code finished}, then {@link #take}, under one acquisition of the queue's lock. */
    ObjectKey doneAndTake(ObjectKey finished) throws InterruptedException {
        return orResync(queue.doneAndTake(finished));
    }

    /** Ends the processing of {@code key}; if it was added meanwhile, it is queued again. */
    void done(ObjectKey key) {
        queue.done(key);
    }

    /**
     * Runs {@code resync} now and then every resync period (jittered) on the taker that finds it due; nothing when
     * the period is zero. Called once, when every store is ready.
     */
    void startResyncs(Runnable resync) {
        this.resync = resync;
        resync.run();
        scheduleResync();
    }

    /** The next resync's due time, or {@code null} when none is scheduled (no period, shut down). */
    Instant nextResyncAt() {
        return queue.timer();
    }

    /** Ends every take and ignores later adds; ends a drain too. */
    void shutDown() {
        queue.shutdown();
    }

    /** Ignores later adds, but the keys due now are still taken (client-go's {@code ShutDownWithDrain}). */
    void shutDownWithDrain() {
        queue.shutdownWithDrain();
    }

    boolean isShutDown() {
        return queue.isShutdown();
    }

    /** Keys due now, waiting for a taker. */
    int depth() {
        return queue.depth();
    }

    /** Of the keys due now, those waiting at NORMAL priority. */
    int normalPriorityDepth() {
        return queue.normalPriorityDepth();
    }

    /** Of the keys due now, those waiting at LOW priority. */
    int lowPriorityDepth() {
        return queue.lowPriorityDepth();
    }

    /** The keys due now, by priority. */
    ReconcilerSnapshot.QueueByPriority byPriority() {
        return new ReconcilerSnapshot.QueueByPriority(queue.normalPriorityDepth(), queue.lowPriorityDepth());
    }

    /** Keys waiting for their due time (retries, requeues, debounced changes). */
    int delayed() {
        return queue.delayed();
    }

    /** Keys being reconciled. */
    int inFlight() {
        return queue.inFlight();
    }

    /** When {@code key} is due, or {@code null} when it is not queued. */
    Instant dueAt(ObjectKey key) {
        return queue.dueAt(key);
    }

    /** How many keys are failing. */
    int failing() {
        return ledger.size();
    }

    /** The {@code limit} most recent failures, newest first. */
    List<ReconcilerSnapshot.FailingKey> recentFailures(int limit) {
        return ledger.mostRecent(limit);
    }

    /** The rate limit's state now, or {@code null} without one. */
    ReconcilerSnapshot.RateLimitState rateLimit() {
        return ledger.rateLimit(time.clock().instant());
    }

    /** A {@code null} from the work queue is a shutdown, or the resync timer this taker now runs. */
    private ObjectKey orResync(ObjectKey key) throws InterruptedException {
        while (key == null && !queue.isShutdown()) {
            scheduleResync(); // first: a resync that throws does not end the resyncs
            resync.run();
            key = queue.take();
        }
        return key;
    }

    private void scheduleResync() {
        if (!resyncPeriod.isZero()) {
            queue.setTimer(time.clock().instant().plus(resyncDelay(resyncPeriod, jitter.getAsDouble())));
        }
    }

    /** {@code period} times a factor in [0.9, 1.1) placed by {@code random} in [0, 1), to the millisecond. */
    static Duration resyncDelay(Duration period, double random) {
        long millis = period.toMillis();
        return Duration.ofMillis(millis - millis / 10 + (long) (millis * 0.2 * random));
    }
}
