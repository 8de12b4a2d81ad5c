package dev.watchkeeper.reconcile;

import dev.watchkeeper.backoff.TimeSource;
import dev.watchkeeper.store.ObjectKey;
import dev.watchkeeper.store.Store;
import dev.watchkeeper.text.Plural;
import dev.watchkeeper.watch.WatchEvent;
import dev.watchkeeper.watch.WatchEventListener;
import dev.watchkeeper.watch.Watcher;
import dev.watchkeeper.watch.WatcherGroup;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a {@link ReconcileFunction} for the objects of a primary watcher: primary changes, mapped secondary changes
 * and periodic resyncs put keys on a {@link WorkQueue}; {@code concurrency} workers take them, look the object up
 * in the primary store and reconcile it. Never two reconciles of one key at once (the queue guarantees it), never
 * more than {@code concurrency} at once, and none before every store of the controller is ready.
 *
 * <pre>{@code
 * ReconcileLoop<V1ConfigMap> controller = ReconcileLoop.builder("mirror", configMaps, reconciler)
 *         .owns(secrets)
 *         .settings(ReconcilerSettings.defaults().withConcurrency(4))
 *         .build();
 * controller.start();
 * ...
 * controller.close(Duration.ofSeconds(30));
 * }</pre>
 *
 * <p>Level-based: every add or change of a primary enqueues its key (unless a {@link TriggerFilter} says no), and a
 * reconcile always sees the latest cached object. <b>Deleted primaries are not reconciled</b>: the object is gone
 * from the store when a worker takes its key, and clean-up belongs to ownerReferences (garbage collection) or a
 * {@link Finalizer}, whose cleanup runs while the object is being deleted. A delete forgets the key's failures.
 *
 * <p>The watchers are shared, not owned: the controller never starts or closes them.
 */
public final class ReconcileLoop<T extends KubernetesObject> {

    /** The queue item that stands for a periodic resync (see {@link #scheduleResync}). */
    static final ObjectKey RESYNC = new ObjectKey(null, "\u0000resync");
    private static final Logger log = LoggerFactory.getLogger(ReconcileLoop.class);
    private static final int FAILING_KEYS_SHOWN = 20;
    private static final Duration AFTER_INTERRUPT = Duration.ofSeconds(1);

    /** The key one worker is reconciling, {@code null} between reconciles. */
    private static final class CurrentKey {
        volatile ObjectKey key;
    }

    /** A secondary watcher (or one per namespace) and how its objects map to primary keys. */
    private record Secondary<S extends KubernetesObject>(WatcherGroup<S> watcher, SecondaryMapper<S> mapper) {
    }

    private final String name;
    private final WatcherGroup<T> primary;
    private final List<Secondary<?>> secondaries;
    private final ReconcilerSettings settings;
    private final TimeSource time;
    private final ThreadFactory threadFactory;

    private final WorkQueue<ObjectKey> queue;
    private final FailureLedger ledger;
    private final EventKeys<T> eventKeys;
    private final Reconciliation<T> reconciliation;
    private final CompletableFuture<Void> stopped = new CompletableFuture<>();

    private final List<Thread> threads = new ArrayList<>();
    /**
     * The key each worker is reconciling, so a reconcile that outlives a stop can be named; a worker registers once
     * and then only writes its own {@link CurrentKey}, so a reconcile touches no shared map.
     */
    private final Map<Thread, CurrentKey> reconciling = new ConcurrentHashMap<>();
    /** Workers whose reconcile ignored its interrupt when this controller stopped waiting for them. */
    private final Set<Thread> abandoned = ConcurrentHashMap.newKeySet();
    private volatile CompletableFuture<Void> ready = new CompletableFuture<>();
    private volatile boolean started;
    private volatile boolean stopping;
    /** Workers belong to one term; {@link #suspend} ends it, {@link #resume} starts the next. */
    private volatile long term;
    private boolean suspended;

    private ReconcileLoop(Builder<T> builder) {
        this.name = builder.name;
        this.primary = builder.primary;
        this.secondaries = List.copyOf(builder.secondaries);
        this.settings = builder.settings;
        this.time = builder.time;
        this.threadFactory = builder.threadFactory;
        Map<Class<?>, Store<?>> stores = new LinkedHashMap<>();
        stores.put(primary.type().javaType(), primary.store());
        secondaries.forEach(s -> stores.putIfAbsent(s.watcher().type().javaType(), s.watcher().store()));
        this.queue = new WorkQueue<>(time);
        this.ledger = new FailureLedger(settings.backOffPolicy(), settings.rateLimit());
        TriggerFilter<T> fromTriggers = settings.triggerFilter();
        TriggerFilter<T> filter = fromTriggers == null ? builder.filter
                : builder.filter == null ? fromTriggers : fromTriggers.or(builder.filter);
        if (filter != null && builder.finalizer != null) {
            filter = filter.or(TriggerFilter.deletionStarted()); // a deletion must reach the cleanup
        }
        if (builder.finalizer != null && builder.apiClient == null) {
            throw new IllegalStateException("reconciler " + name + " has the finalizer " + builder.finalizer.name()
                    + " but no ApiClient to add and remove it");
        }
        this.eventKeys = new EventKeys<>(primary.store(), queue, ledger, filter, settings.debounce());
        this.reconciliation = new Reconciliation<>(name, primary, builder.reconciler, builder.finalizer,
                Map.copyOf(stores), builder.apiClient, builder.observer, List.copyOf(builder.listeners), time,
                queue, ledger, eventKeys);
    }

    /** Starts building a controller named {@code name} that reconciles the objects of {@code primary}. */
    public static <T extends KubernetesObject> Builder<T> builder(String name, Watcher<T> primary,
            ReconcileFunction<T> reconciler) {
        return builder(name, WatcherGroup.of(primary), reconciler);
    }

    /** A controller that reconciles the objects of every watcher of {@code primary} (a set of namespaces). */
    public static <T extends KubernetesObject> Builder<T> builder(String name, WatcherGroup<T> primary,
            ReconcileFunction<T> reconciler) {
        return new Builder<>(name, primary, reconciler);
    }

    /**
     * Subscribes to the watchers and starts the workers. Workers wait until every store is
     * ready; then every primary key is enqueued once, so a controller started after its watchers misses nothing.
     */
    public synchronized void start() {
        subscribe();
        startWorkers();
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
            queue.shutdown(); // a lost Lease never drains: another replica may hold it soon
        }
        suspended = true;
        term++;
        threads.forEach(Thread::interrupt);
    }

    /**
     * Waits up to {@code wait} for the workers of ended terms to finish, and logs those still running.
     *
     * @return whether none is left
     */
    public boolean awaitSuspended(Duration wait) {
        List<Thread> ending;
        synchronized (this) {
            ending = List.copyOf(threads);
        }
        joinAll(ending, System.nanoTime() + wait.toNanos());
        reportIgnoredInterrupts(ending, wait);
        synchronized (this) {
            threads.removeIf(t -> !t.isAlive());
            return threads.isEmpty();
        }
    }

    /** Starts a new term of workers after {@link #startSuspended} or {@link #suspend}; no-op otherwise. */
    public synchronized void resume() {
        if (!suspended || stopping) {
            return;
        }
        suspended = false;
        startWorkers();
    }

    private void subscribe() {
        if (started) {
            throw new IllegalStateException("reconciler " + name + " was already started");
        }
        if (stopping) {
            throw new IllegalStateException("reconciler " + name + " is closed");
        }
        started = true;
        primary.addListener(new WatchEventListener<>() {
            @Override
            public void onEvent(WatchEvent<T> event) {
                if (!stopping) { // watchers cannot drop a listener; a closed controller's stays registered but inert
                    eventKeys.onPrimary(event);
                }
            }

            @Override
            public boolean readsObjects() {
                return eventKeys.readsObjects();
            }
        });
        for (Secondary<?> secondary : secondaries) {
            subscribe(secondary);
        }
        List<CompletableFuture<Void>> readiness = new ArrayList<>();
        readiness.add(primary.store().ready());
        secondaries.forEach(s -> readiness.add(s.watcher().store().ready()));
        ready = CompletableFuture.allOf(readiness.toArray(CompletableFuture[]::new)).thenRun(() -> {
            eventKeys.enqueueAll();
            scheduleResync();
            log.info("reconciler {} is ready: reconciling {}", name, Plural.count(primary.store().size(), "object"));
        });
    }

    private void startWorkers() {
        long current = term;
        for (int i = 1; i <= settings.concurrency(); i++) {
            Thread worker = newThread(() -> work(current), "worker-" + i);
            threads.add(worker);
            worker.start();
        }
    }

    /**
     * Stops taking new work, without waiting: running reconciles finish; queued keys are dropped, unless the settings
     * ask for {@link ReconcilerSettings#shutdownDrain() a drain} and workers run: then the keys due now are still
     * reconciled (client-go's {@code ShutDownWithDrain}), until {@link #close} ends the drain at its grace.
     */
    public synchronized void stop() {
        stopping = true;
        if (settings.shutdownDrain() && !suspended) {
            queue.shutdownWithDrain();
        } else {
            queue.shutdown();
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
        List<Thread> running;
        synchronized (this) {
            running = List.copyOf(threads);
        }
        joinAll(running, System.nanoTime() + grace.toNanos());
        int undrained = queue.depth();
        queue.shutdown();
        if (undrained > 0) {
            log.warn("reconciler {}: the shutdown grace of {} ms ended with {} not drained", name, grace.toMillis(),
                    Plural.count(undrained, "queued key"));
        }
        running.stream().filter(Thread::isAlive).forEach(Thread::interrupt);
        joinAll(running, System.nanoTime() + AFTER_INTERRUPT.toNanos());
        reportIgnoredInterrupts(running, grace.plus(AFTER_INTERRUPT));
    }

    /** Logs, and remembers for snapshots, the workers among {@code threads} still running after {@code waited}. */
    private void reportIgnoredInterrupts(List<Thread> threads, Duration waited) {
        for (Thread thread : threads) {
            if (thread.isAlive()) {
                abandoned.add(thread);
                ObjectKey key = reconcilingOn(thread);
                log.warn("reconciler {}: the reconcile of {} ignored its interrupt and still runs after {} ms; it is"
                        + " left running on thread {}", name, key == null ? "no key" : key, waited.toMillis(),
                        thread.getName());
            }
        }
    }

    /** Joins each thread until {@code deadlineNanos}; an interrupted caller stops waiting but keeps its flag. */
    private static void joinAll(List<Thread> threads, long deadlineNanos) {
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

    /** Closes with the settings' shutdown grace. */
    public void close() {
        close(settings.shutdownGrace());
    }

    /** Re-adds every failing key (terminal ones too) with no delay and starts their backoff over. */
    public void retryFailingNow() {
        ledger.forgetAll().forEach(queue::add);
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
        return primary;
    }

    /** The watchers of owned and otherwise watched resources. */
    public List<WatcherGroup<?>> secondaries() {
        return secondaries.stream().<WatcherGroup<?>>map(Secondary::watcher).toList();
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
        synchronized (this) {
            return threads.stream().anyMatch(Thread::isAlive);
        }
    }

    /** How many keys wait in the queue (due now or later); O(1), for gauges. */
    public int queueDepth() {
        Instant resyncDue = queue.dueAt(RESYNC);
        return queue.depth() - (resyncDue != null && !resyncDue.isAfter(time.clock().instant()) ? 1 : 0);
    }

    /** The queue, for tests that wait until nothing due is left in it. */
    WorkQueue<ObjectKey> queue() {
        return queue;
    }

    /** How many keys are failing; O(1), for gauges. */
    public int failingKeys() {
        return ledger.size();
    }

    /** Totals since start; O(1), for counters. */
    public ReconcilerSnapshot.Counts counts() {
        return reconciliation.counts();
    }

    /** The current state, read when asked (the most recent failing keys, the counts, queue depth, readiness). */
    public ReconcilerSnapshot snapshot() {
        return new ReconcilerSnapshot(name, primary.name(), secondaries.stream().map(s -> s.watcher().name()).toList(),
                isReady(), queueDepth(), queue.delayed() - (queue.isQueued(RESYNC) ? 1 : 0), queue.inFlight(),
                settings.concurrency(),
                reconciliation.lastReconcileAt(), reconciliation.lastResult(),
                ledger.mostRecent(FAILING_KEYS_SHOWN), ledger.size(), counts(), stuckKeys(),
                ledger.rateLimit(time.clock().instant()));
    }

    /** Keys of abandoned reconciles that still run. */
    private List<String> stuckKeys() {
        abandoned.removeIf(thread -> !thread.isAlive());
        return abandoned.stream().map(this::reconcilingOn).filter(Objects::nonNull).map(ObjectKey::toString).sorted()
                .toList();
    }

    /** The key {@code thread} is reconciling, or {@code null}. */
    private ObjectKey reconcilingOn(Thread thread) {
        CurrentKey current = reconciling.get(thread);
        return current == null ? null : current.key;
    }

    // ---- events in

    private <S extends KubernetesObject> void subscribe(Secondary<S> secondary) {
        WatchEventListener<S> toKeys = eventKeys.secondaryListener(secondary.mapper());
        secondary.watcher().addListener(event -> {
            if (!stopping) {
                toKeys.onEvent(event);
            }
        });
    }

    /**
     * Periodic resync runs through the queue: this item, due every resync period (±10 %), makes a worker enqueue
     * every object of the primary store, so no thread of its own waits for it. No Kubernetes name holds a NUL.
     */
    private void scheduleResync() {
        Duration period = settings.resyncPeriod();
        if (!period.isZero()) {
            double jitter = 0.9 + 0.2 * ThreadLocalRandom.current().nextDouble();
            queue.add(RESYNC, Duration.ofMillis((long) (period.toMillis() * jitter)));
        }
    }

    // ---- threads

    private Thread newThread(Runnable body, String role) {
        Thread thread = threadFactory.newThread(body);
        thread.setName("watchkeeper-" + name + "-" + role);
        return thread;
    }

    private void work(long myTerm) {
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
                if (term != myTerm) { // suspended while taking: the key waits for the next term
                    queue.add(key);
                    queue.done(key);
                    return;
                }
                try {
                    process(key, current, termEnded);
                } catch (Throwable thrown) {
                    queue.done(key);
                    throw thrown;
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
            stop();
            throw fatal;
        } finally {
            reconciling.remove(Thread.currentThread());
        }
    }

    /** Reconciles {@code key}, or runs the periodic resync it stands for. */
    private void process(ObjectKey key, CurrentKey current, BooleanSupplier termEnded) {
        if (key.equals(RESYNC)) {
            log.debug("reconciler {}: periodic resync of {}", name, Plural.count(primary.store().size(), "object"));
            eventKeys.enqueueAll();
            scheduleResync();
            return;
        }
        current.key = key;
        try {
            reconciliation.run(key, termEnded);
        } finally {
            current.key = null;
        }
    }

    /** Builds a {@link ReconcileLoop}; everything but name, primary watcher and reconciler has a default. */
    public static final class Builder<T extends KubernetesObject> {

        private final String name;
        private final WatcherGroup<T> primary;
        private final ReconcileFunction<T> reconciler;
        private final List<Secondary<?>> secondaries = new ArrayList<>();
        private final List<ReconcileListener> listeners = new ArrayList<>();
        private ReconcilerSettings settings = ReconcilerSettings.defaults();
        private TriggerFilter<T> filter;
        private Finalizer<T> finalizer;
        private TimeSource time = TimeSource.system();
        private ThreadFactory threadFactory = Builder::daemonThread;
        private ReconcileObserver observer = ReconcileObserver.passThrough();
        private ApiClient apiClient;

        private Builder(String name, WatcherGroup<T> primary, ReconcileFunction<T> reconciler) {
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException("a reconciler needs a name");
            }
            this.name = name;
            this.primary = Objects.requireNonNull(primary, "primary");
            this.reconciler = Objects.requireNonNull(reconciler, "reconciler");
        }

        /** A secondary resource whose objects name their primary in a controller ownerReference. */
        public <S extends KubernetesObject> Builder<T> owns(Watcher<S> secondary) {
            return watches(secondary, new OwnerReferenceMapper<>(primary.type(), primary.store()));
        }

        /** A secondary resource whose objects map to primary keys through {@code mapper}. */
        public <S extends KubernetesObject> Builder<T> watches(Watcher<S> secondary, SecondaryMapper<S> mapper) {
            return watches(WatcherGroup.of(Objects.requireNonNull(secondary, "secondary")), mapper);
        }

        /** A secondary resource watched per namespace, whose objects map to primary keys through {@code mapper}. */
        public <S extends KubernetesObject> Builder<T> watches(WatcherGroup<S> secondary, SecondaryMapper<S> mapper) {
            secondaries.add(new Secondary<>(Objects.requireNonNull(secondary, "secondary"),
                    Objects.requireNonNull(mapper, "mapper")));
            return this;
        }

        public Builder<T> settings(ReconcilerSettings settings) {
            this.settings = Objects.requireNonNull(settings, "settings");
            return this;
        }

        /** A trigger filter of your own; combined with the settings' triggers by "either". */
        public Builder<T> filter(TriggerFilter<T> filter) {
            this.filter = filter;
            return this;
        }

        /**
         * A finalizer added to every object before its first reconcile, whose cleanup runs instead of the
         * reconcile once the object is being deleted (docs/semantics.md §10). Needs an {@link #apiClient}.
         */
        public Builder<T> finalizer(Finalizer<T> finalizer) {
            this.finalizer = finalizer;
            return this;
        }

        public Builder<T> timeSource(TimeSource time) {
            this.time = Objects.requireNonNull(time, "time");
            return this;
        }

        /** Where worker threads come from (virtual threads, say); default daemon platform threads. */
        public Builder<T> threadFactory(ThreadFactory threadFactory) {
            this.threadFactory = Objects.requireNonNull(threadFactory, "threadFactory");
            return this;
        }

        public Builder<T> observer(ReconcileObserver observer) {
            this.observer = Objects.requireNonNull(observer, "observer");
            return this;
        }

        public Builder<T> listener(ReconcileListener listener) {
            listeners.add(Objects.requireNonNull(listener, "listener"));
            return this;
        }

        /** The client handed to reconciles in their context (and used for Events). */
        public Builder<T> apiClient(ApiClient apiClient) {
            this.apiClient = apiClient;
            return this;
        }

        public ReconcileLoop<T> build() {
            return new ReconcileLoop<>(this);
        }

        private static Thread daemonThread(Runnable body) {
            Thread thread = new Thread(body);
            thread.setDaemon(true);
            return thread;
        }
    }
}
