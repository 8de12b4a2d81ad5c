package dev.watchkeeper.internal.reconcile;

import dev.watchkeeper.internal.api.ServerWaits;
import dev.watchkeeper.reconcile.DependentsResult;
import dev.watchkeeper.reconcile.ReconcilerSnapshot;
import dev.watchkeeper.reconcile.TriggerFilter;
import dev.watchkeeper.internal.shard.ShardParticipant;
import dev.watchkeeper.internal.shard.Slots;
import dev.watchkeeper.store.ObjectKey;
import dev.watchkeeper.internal.text.Plural;
import dev.watchkeeper.internal.watch.Watcher;
import dev.watchkeeper.internal.watch.WatcherGroup;
import io.kubernetes.client.common.KubernetesObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a {@link ReconcileFunction} for the objects of a primary watcher: primary changes, mapped secondary changes
 * and periodic resyncs put keys on a {@link ReconcileQueue}; {@code concurrency} workers take them, look the object
 * up in the primary store and reconcile it. Never two reconciles of one key at once (the queue guarantees it), never
 * more than {@code concurrency} at once, and none before every store of the reconciler is ready.
 *
 * <pre>{@code
 * Reconciler<V1ConfigMap> reconciler = Reconciler.builder("mirror", configMaps, reconcile)
 *         .owns(secrets)
 *         .settings(ReconcilerSettings.defaults().withConcurrency(4))
 *         .build();
 * reconciler.start();
 * ...
 * reconciler.close(Duration.ofSeconds(30));
 * }</pre>
 *
 * <p>Level-based: every add or change of a primary enqueues its key (unless a {@link TriggerFilter} says no), and a
 * reconcile always sees the latest cached object. <b>Deleted primaries are not reconciled</b>: the object is gone
 * from the store when a worker takes its key, and clean-up belongs to ownerReferences (garbage collection) or a
 * {@link Finalizer}, whose cleanup runs while the object is being deleted. A delete forgets the key's failures.
 *
 * <p>The watchers are shared, not owned ({@link ReconcileSources}): the reconciler never starts or closes them.
 *
 * <p>A {@link ReconcilerBuilder#sharded() sharded} reconciler reconciles only keys whose primary's uid hash lies
 * in its active slots, none until {@link #widen}; {@link #narrow} gives slots up and drains them (docs/sharding.md).
 */
public final class Reconciler<T extends KubernetesObject> {

    private static final Logger log = LoggerFactory.getLogger(Reconciler.class);
    private static final int FAILING_KEYS_SHOWN = 20;
    private static final Duration AFTER_INTERRUPT = Duration.ofSeconds(1);

    private final String name;
    private final ReconcileSources<T> sources;
    private final ReconcilerSettings settings;
    private final ReconcilerSnapshot.BackOff backOff;

    private final ReconcileQueue queue;
    private final EventKeys<T> eventKeys;
    private final Reconciliation<T> reconciliation;
    private final Workers workers;
    private final ReconcileDeadlines deadlines;
    /** {@code null} unless sharded. */
    private final ActiveSlots<T> slots;
    private final DependentStats dependentStats = new DependentStats();
    private final ExternalPolls polls;
    private final CompletableFuture<Void> stopped = new CompletableFuture<>();

    private volatile CompletableFuture<Void> ready = new CompletableFuture<>();
    private volatile boolean started;
    private volatile boolean stopping;
    private boolean suspended;

    Reconciler(ReconcilerBuilder<T> builder) {
        this.name = builder.name;
        this.sources = new ReconcileSources<>(builder.primary, builder.secondaries);
        this.settings = builder.settings;
        this.backOff = ReconcilerSettings.describe(settings.backOffPolicy());
        if (builder.apiClient != null) {
            ServerWaits.on(builder.apiClient, builder.time); // before any write: no path sends inside a Retry-After
        }
        this.queue = new ReconcileQueue(builder.time, settings, builder.resyncJitter);
        List<WatcherGroup<?>> watched = new ArrayList<>();
        watched.add(builder.primary);
        watched.addAll(sources.secondaries());
        OwnWrites ownWrites = new OwnWrites(WatchedKinds.of(watched));
        this.deadlines = settings.hasTimeout() ? new ReconcileDeadlines(name, settings.timeout(), AFTER_INTERRUPT,
                builder.time, builder.threadFactory, this::reportStuck) : ReconcileDeadlines.none();
        this.eventKeys = new EventKeys<>(builder.primary.store(), queue,
                EventKeys.filter(settings, builder.filter, builder.finalizer != null), settings.debounce(), ownWrites,
                builder.finalizer == null ? null : builder.finalizer.name());
        this.polls = new ExternalPolls(name, builder.time, builder.threadFactory,
                key -> builder.primary.store().get(key).orElse(null), queue::add, dependentStats);
        this.reconciliation = new Reconciliation<>(
                ReconcileScope.of(name, builder.primary, sources.secondaries(), builder.apiClient, builder.time,
                        ownWrites, builder.events, WriteBudget.of(name, settings.writeBudget(), builder.time),
                        dependentStats, polls),
                new UserCode<>(builder.reconcile, builder.finalizer, builder.observer, builder.listeners),
                queue, eventKeys, builder.statusConditions,
                new ReadYourWrites(name, ownWrites, queue, builder.time.clock(), settings.readYourWritesTimeout()),
                deadlines);
        this.slots = builder.sharded ? new ActiveSlots<>(name, builder.primary, eventKeys, builder.time,
                settings.shutdownGrace(), AFTER_INTERRUPT) : null;
        this.workers = new Workers(name, settings.concurrency(), builder.threadFactory, queue, reconciliation, slots,
                this::stop);
    }

    /** Starts building a reconciler named {@code name} that reconciles the objects of {@code primary}. */
    public static <T extends KubernetesObject> ReconcilerBuilder<T> builder(String name, Watcher<T> primary,
            ReconcileFunction<T> reconcile) {
        return builder(name, WatcherGroup.of(primary), reconcile);
    }

    /** A reconciler that reconciles the objects of every watcher of {@code primary} (a set of namespaces). */
    public static <T extends KubernetesObject> ReconcilerBuilder<T> builder(String name,
            WatcherGroup<T> primary, ReconcileFunction<T> reconcile) {
        return new ReconcilerBuilder<>(name, primary, reconcile);
    }

    /**
     * Subscribes to the watchers and starts the workers. Workers wait until every store is
     * ready; then every primary key is enqueued once, so a reconciler started after its watchers misses nothing.
     */
    public synchronized void start() {
        subscribe();
        workers.startTerm(ready, stopped);
    }

    /**
     * Subscribes to the watchers but starts no worker, as a replica that does not lead: keys gather in the queue
     * (the first sync enqueues every primary) and are worked on from {@link #resume} (docs/semantics.md §14).
     */
    public synchronized void startSuspended() {
        subscribe();
        suspended = true;
    }

    /**
     * Ends the current term without waiting: no new reconcile starts and running ones are interrupted. Queued keys
     * stay queued for {@link #resume}. A running reconcile that throws after this was cut short, neither a success nor
     * a failure: no error is counted, no backoff starts and its key is queued again; one that returns normally
     * succeeded. During a {@link #stop} that drains, the drain ends:
     * queued keys are dropped. No-op unless working. {@link #awaitSuspended} waits for the workers.
     */
    public synchronized void suspend() {
        if (!started || suspended) {
            return;
        }
        if (stopping) {
            queue.shutDown(); // a lost Lease never drains: another replica may hold it soon
        }
        suspended = true;
        workers.endTerm();
    }

    /**
     * Waits up to {@code wait} for the workers of ended terms to finish, and logs those still running.
     *
     * @return whether none is left
     */
    public boolean awaitSuspended(Duration wait) {
        return workers.awaitEnded(wait);
    }

    /** Starts a new term of workers after {@link #startSuspended} or {@link #suspend}; no-op otherwise. */
    public synchronized void resume() {
        if (!suspended || stopping) {
            return;
        }
        suspended = false;
        workers.startTerm(ready, stopped);
    }

    private void subscribe() {
        if (started) {
            throw new IllegalStateException("reconciler " + name + " was already started");
        }
        if (stopping) {
            throw new IllegalStateException("reconciler " + name + " is closed");
        }
        started = true;
        CompletableFuture<Void> synced = sources.subscribe(eventKeys, () -> stopping).thenRun(() -> {
            queue.startResyncs(this::enqueueAll);
            log.info("reconciler {} is ready: reconciling {}", name, Plural.count(primary().store().size(), "object"));
        });
        ready = synced;
        for (CompletableFuture<Void> served : sources.servedLater()) {
            // A type served later: its dependents become active, so every primary is reconciled once more.
            CompletableFuture.allOf(synced, served).thenRun(() -> {
                if (!stopping) {
                    enqueueAll();
                }
            });
        }
    }

    /** Enqueues every primary: once all stores are ready, then at each periodic resync. */
    private void enqueueAll() {
        log.debug("reconciler {}: enqueueing all {}", name, Plural.count(primary().store().size(), "object"));
        eventKeys.enqueueAll();
    }

    /**
     * Stops taking new work, without waiting: running reconciles finish; queued keys are dropped, unless the settings
     * ask for {@link ReconcilerSettings#shutdownDrain() a drain} and workers run: then the keys due now are still
     * reconciled (client-go's {@code ShutDownWithDrain}), until {@link #close} ends the drain at its grace.
     */
    public synchronized void stop() {
        stopping = true;
        if (settings.shutdownDrain() && !suspended) {
            queue.shutDownWithDrain();
        } else {
            queue.shutDown();
        }
        stopped.complete(null);
    }

    /**
     * {@link #stop Stops}, waits up to {@code grace} for running reconciles (and a drain), then drops what is left
     * queued, interrupts running reconciles and waits a little more. Returns then even if a reconcile ignores its
     * interrupt: that one is logged (reconciler and key) and shown in the snapshot's {@code stuckKeys}.
     */
    public void close(Duration grace) {
        stop();
        List<Thread> running = workers.threads();
        Workers.joinAll(running, grace);
        int undrained = queue.depth();
        queue.shutDown();
        if (undrained > 0 && settings.shutdownDrain()) { // without a drain, stop() dropped the queue on purpose
            log.warn("reconciler {}: the shutdown grace of {} ms ended with {} not drained", name, grace.toMillis(),
                    Plural.count(undrained, "queued key"));
        }
        workers.interrupt(running, grace, AFTER_INTERRUPT);
        deadlines.close();
        polls.close();
    }

    /** A reconcile that ran past its timeout ignored the interrupt: told by the timer of {@link #deadlines}. */
    private void reportStuck(Thread worker, Duration waited) {
        workers.reportStuck(worker, waited);
    }

    /** Closes with the settings' shutdown grace. */
    public void close() {
        close(settings.shutdownGrace());
    }

    /**
     * A sharded reconciler's side of sharding, for its replica's coordinator: {@link ShardParticipant#narrow narrow}
     * and {@link ShardParticipant#widen widen} are this reconciler's; {@link ShardParticipant#assign assign}, what
     * the primary watchers list, is handed to {@code assign} (the watchers are shared, not this reconciler's).
     *
     * @throws IllegalStateException when the reconciler was not built {@link ReconcilerBuilder#sharded() sharded}
     */
    public ShardParticipant participant(Consumer<Slots> assign) {
        Objects.requireNonNull(assign, "assign");
        return shardSlots().participant(assign);
    }

    /**
     * Reconciles only keys whose primary lies in {@code active} from this call on, without blocking: the future is
     * complete at once when no reconcile of another key runs, else it completes on a drain thread once none does.
     * Those still running after the settings' shutdown grace are interrupted, and one that then throws is neither a
     * success nor a failure (as with a lost Lease).
     *
     * @throws IllegalStateException when the reconciler was not built {@link ReconcilerBuilder#sharded() sharded}
     */
    public CompletableFuture<Void> narrow(Slots active) {
        return shardSlots().narrow(Objects.requireNonNull(active, "active"));
    }

    /**
     * Reconciles keys in {@code active}, which holds every slot active now, and queues the primaries of the slots
     * gained (only those).
     *
     * @throws IllegalArgumentException when {@code active} leaves out a slot active now ({@link #narrow} first)
     * @throws IllegalStateException    when the reconciler was not built {@link ReconcilerBuilder#sharded() sharded}
     */
    public void widen(Slots active) {
        shardSlots().widen(Objects.requireNonNull(active, "active"));
    }

    private ActiveSlots<T> shardSlots() {
        if (slots == null) {
            throw new IllegalStateException("reconciler " + name + " is not sharded");
        }
        return slots;
    }

    /** Re-adds every failing key (terminal ones too) with no delay and starts their backoff over. */
    public void retryFailingNow() {
        queue.retryFailingNow();
    }

    /** Queues {@code key} for a reconcile now (a manual trigger). */
    public void enqueue(ObjectKey key) {
        queue.add(key);
    }

    public String name() {
        return name;
    }

    /** The watcher of the primary resource (or the one per namespace of a set). */
    public WatcherGroup<T> primary() {
        return sources.primary();
    }

    /** The watchers of owned and otherwise watched resources. */
    public List<WatcherGroup<?>> secondaries() {
        return sources.secondaries();
    }

    public ReconcilerSettings settings() {
        return settings;
    }

    /** Whether every store is ready, so reconciles run. */
    public boolean isReady() {
        return ready.isDone() && !stopping;
    }

    /** Whether any worker thread is alive. */
    public boolean isRunning() {
        return workers.isRunning();
    }

    /** How many keys are due now, waiting for a worker; O(1), for gauges. */
    public int queueDepth() {
        return queue.depth();
    }

    /** Of the keys due now, how many wait at normal priority (live changes, requeues, retries); O(1), for gauges. */
    public int normalPriorityQueueDepth() {
        return queue.normalPriorityDepth();
    }

    /** Of the keys due now, how many wait at low priority (a list's, relist's or resync's); O(1), for gauges. */
    public int lowPriorityQueueDepth() {
        return queue.lowPriorityDepth();
    }

    /** The read-your-own-writes fence's state, {@code null} when it is off; O(1), for counters. */
    public ReconcilerSnapshot.ReadYourWrites readYourWrites() {
        return reconciliation.readYourWrites();
    }

    /** The queue, for tests that wait until nothing due is left in it. */
    ReconcileQueue queue() {
        return queue;
    }

    /** How many keys are failing; O(1), for gauges. */
    public int failingKeys() {
        return queue.failing();
    }

    /** Totals since start; O(1), for counters. */
    public ReconcilerSnapshot.Counts counts() {
        return reconciliation.stats().counts();
    }

    /** The current state, read when asked (the most recent failing keys, the counts, queue depth, readiness). */
    public ReconcilerSnapshot snapshot() {
        ReconcileStats stats = reconciliation.stats();
        return new ReconcilerSnapshot(name, primary().name(), sources.secondaryNames(),
                isReady(), queue.depth(), queue.delayed(), queue.inFlight(), settings.concurrency(),
                stats.lastReconcileAt(), stats.lastResult(), queue.recentFailures(FAILING_KEYS_SHOWN),
                queue.failing(), stats.counts(), stuckKeys(), queue.rateLimit(), backOff,
                slots == null ? null : slots.shard(), queue.byPriority(), reconciliation.readYourWrites(),
                dependentStats.snapshot(key -> primary().store().get(key).isPresent()));
    }

    /** Calls {@code listener} with each dependent's outcome after every run of a primary's dependents. */
    public void onDependentRun(Consumer<DependentsResult.DependentState> listener) {
        dependentStats.onRun(Objects.requireNonNull(listener, "listener"));
    }

    /** Reconciles that ignored their interrupt at a stop, a lost Lease or a narrow, by key, sorted. */
    private List<String> stuckKeys() {
        List<String> stuck = workers.stuckKeys();
        if (slots == null) {
            return stuck;
        }
        return Stream.concat(stuck.stream(), slots.stuckKeys().stream()).distinct().sorted().toList();
    }
}
