package dev.watchkeeper.controller;

import dev.watchkeeper.backoff.TimeSource;
import dev.watchkeeper.store.ObjectKey;
import dev.watchkeeper.store.Store;
import dev.watchkeeper.watch.WatchEvent;
import dev.watchkeeper.watch.Watcher;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a {@link ReconcileFunction} for the objects of a primary watcher: primary changes, mapped secondary changes
 * and periodic resyncs put keys on a {@link WorkQueue}; {@code concurrency} workers take them, look the object up
 * in the primary store and reconcile it. Never two reconciles of one key at once (the queue guarantees it), never
 * more than {@code concurrency} at once, and none before every store of the controller is ready.
 *
 * <pre>{@code
 * Controller<V1ConfigMap> controller = Controller.builder("mirror", configMaps, reconciler)
 *         .owns(secrets)
 *         .settings(ControllerSettings.defaults().withConcurrency(4))
 *         .build();
 * controller.start();
 * ...
 * controller.close(Duration.ofSeconds(30));
 * }</pre>
 *
 * <p>Level-based: every add or change of a primary enqueues its key (unless a {@link TriggerFilter} says no), and a
 * reconcile always sees the latest cached object. <b>Deleted primaries are not reconciled</b>: the object is gone
 * from the store when a worker takes its key, and clean-up belongs to ownerReferences (garbage collection) or
 * finalizers, which a reconcile sees as {@code metadata.deletionTimestamp}. A delete forgets the key's failures.
 *
 * <p>The watchers are shared, not owned: the controller never starts or closes them.
 */
public final class Controller<T extends KubernetesObject> {

    private static final Logger log = LoggerFactory.getLogger(Controller.class);
    private static final int FAILING_KEYS_SHOWN = 20;
    private static final Duration AFTER_INTERRUPT = Duration.ofSeconds(1);

    /** A key whose latest reconcile failed; {@code resourceVersion} lets a terminal failure wait for a change. */
    private record Failure(int attempts, Duration delay, Instant nextRetryAt, String lastError, boolean terminal,
            String resourceVersion, long order) {
    }

    /** A secondary watcher and how its objects map to primary keys. */
    private record Secondary<S extends KubernetesObject>(Watcher<S> watcher, SecondaryMapper<S> mapper) {
    }

    private final String name;
    private final Watcher<T> primary;
    private final List<Secondary<?>> secondaries;
    private final ReconcileFunction<T> reconciler;
    private final ControllerSettings settings;
    private final TriggerFilter<T> filter;
    private final TimeSource time;
    private final ThreadFactory threadFactory;
    private final ReconcileObserver observer;
    private final List<ReconcileListener> listeners;
    private final ApiClient apiClient;
    private final Map<Class<?>, Store<?>> stores;

    private final WorkQueue<ObjectKey> queue;
    private final ObjectBackOff<ObjectKey> backOff;
    private final Map<ObjectKey, Failure> failures = new ConcurrentHashMap<>();
    /** The last version of each primary the filter saw; kept only when a filter is set. */
    private final Map<ObjectKey, T> lastSeen = new ConcurrentHashMap<>();
    private final CompletableFuture<Void> stopped = new CompletableFuture<>();
    private final Object resyncMonitor = new Object();
    private final AtomicLong failureOrder = new AtomicLong();
    private final AtomicLong reconciles = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();
    private final AtomicLong requeues = new AtomicLong();
    private final AtomicLong retries = new AtomicLong();

    private final List<Thread> threads = new ArrayList<>();
    private volatile CompletableFuture<Void> ready = new CompletableFuture<>();
    private volatile boolean started;
    private volatile boolean stopping;
    private volatile Instant lastReconcileAt;
    private volatile String lastResult;

    private Controller(Builder<T> builder) {
        this.name = builder.name;
        this.primary = builder.primary;
        this.secondaries = List.copyOf(builder.secondaries);
        this.reconciler = builder.reconciler;
        this.settings = builder.settings;
        TriggerFilter<T> fromTriggers = settings.triggerFilter();
        this.filter = fromTriggers == null ? builder.filter
                : builder.filter == null ? fromTriggers : fromTriggers.or(builder.filter);
        this.time = builder.time;
        this.threadFactory = builder.threadFactory;
        this.observer = builder.observer;
        this.listeners = List.copyOf(builder.listeners);
        this.apiClient = builder.apiClient;
        Map<Class<?>, Store<?>> byType = new LinkedHashMap<>();
        byType.put(primary.type().javaType(), primary.store());
        secondaries.forEach(s -> byType.putIfAbsent(s.watcher().type().javaType(), s.watcher().store()));
        this.stores = Map.copyOf(byType);
        this.queue = new WorkQueue<>(time);
        this.backOff = new ObjectBackOff<>(settings.backOffPolicy());
    }

    /** Starts building a controller named {@code name} that reconciles the objects of {@code primary}. */
    public static <T extends KubernetesObject> Builder<T> builder(String name, Watcher<T> primary,
            ReconcileFunction<T> reconciler) {
        return new Builder<>(name, primary, reconciler);
    }

    /**
     * Subscribes to the watchers and starts the workers (and the resync timer). Workers wait until every store is
     * ready; then every primary key is enqueued once, so a controller started after its watchers misses nothing.
     */
    public synchronized void start() {
        if (started) {
            throw new IllegalStateException("controller " + name + " was already started");
        }
        if (stopping) {
            throw new IllegalStateException("controller " + name + " is closed");
        }
        started = true;
        primary.addListener(this::onPrimaryEvent);
        for (Secondary<?> secondary : secondaries) {
            subscribe(secondary);
        }
        List<CompletableFuture<Void>> readiness = new ArrayList<>();
        readiness.add(primary.store().ready());
        secondaries.forEach(s -> readiness.add(s.watcher().store().ready()));
        ready = CompletableFuture.allOf(readiness.toArray(CompletableFuture[]::new)).thenRun(() -> {
            enqueueAll();
            log.info("controller {} is ready: reconciling {} objects", name, primary.store().size());
        });
        for (int i = 1; i <= settings.concurrency(); i++) {
            threads.add(newThread(this::work, "worker-" + i));
        }
        if (!settings.resyncPeriod().isZero()) {
            threads.add(newThread(this::resync, "resync"));
        }
        threads.forEach(Thread::start);
    }

    /** Stops taking work, without waiting: running reconciles finish, queued keys are dropped. */
    public void stop() {
        stopping = true;
        queue.shutdown();
        stopped.complete(null);
        synchronized (resyncMonitor) {
            resyncMonitor.notifyAll();
        }
    }

    /**
     * Stops taking work, waits up to {@code grace} for running reconciles, then interrupts them and waits a little
     * more. Returns once no thread of the controller is left (or logs the ones that ignore interrupts).
     */
    public void close(Duration grace) {
        stop();
        List<Thread> running;
        synchronized (this) {
            running = List.copyOf(threads);
        }
        long deadline = System.nanoTime() + grace.toNanos();
        joinAll(running, deadline);
        running.stream().filter(Thread::isAlive).forEach(Thread::interrupt);
        joinAll(running, System.nanoTime() + AFTER_INTERRUPT.toNanos());
        running.stream().filter(Thread::isAlive)
                .forEach(t -> log.warn("controller {}: thread {} ignored its interrupt and is still running", name,
                        t.getName()));
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
        for (ObjectKey key : List.copyOf(failures.keySet())) {
            failures.remove(key);
            backOff.forget(key);
            queue.add(key);
        }
    }

    /** Queues {@code key} for a reconcile now (a manual trigger). */
    public void enqueue(ObjectKey key) {
        queue.add(key);
    }

    public String name() {
        return name;
    }

    /** The watcher of the primary resource. */
    public Watcher<T> primary() {
        return primary;
    }

    /** The watchers of owned and otherwise watched resources. */
    public List<Watcher<?>> secondaries() {
        return secondaries.stream().<Watcher<?>>map(Secondary::watcher).toList();
    }

    public ControllerSettings settings() {
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

    /** The current state, read when asked (the most recent failing keys, the counts, queue depth, readiness). */
    public ControllerSnapshot snapshot() {
        // Only the most recent failures are shown; a bounded heap keeps this O(n log 20). Built when asked, so no
        // reconcile pays for it.
        PriorityQueue<Map.Entry<ObjectKey, Failure>> recent = new PriorityQueue<>(
                Comparator.comparingLong(e -> e.getValue().order()));
        int total = 0;
        for (Map.Entry<ObjectKey, Failure> entry : failures.entrySet()) {
            total++;
            recent.add(entry);
            if (recent.size() > FAILING_KEYS_SHOWN) {
                recent.poll();
            }
        }
        List<ControllerSnapshot.FailingKey> shown = new ArrayList<>(recent.size());
        while (!recent.isEmpty()) {
            Map.Entry<ObjectKey, Failure> entry = recent.poll();
            Failure failure = entry.getValue();
            shown.add(0, new ControllerSnapshot.FailingKey(entry.getKey().toString(), failure.attempts(),
                    failure.delay(), failure.nextRetryAt(), failure.lastError(), failure.terminal()));
        }
        return new ControllerSnapshot(name, primary.name(), secondaries.stream().map(s -> s.watcher().name()).toList(),
                isReady(), queue.depth(), queue.inFlight(), settings.concurrency(), lastReconcileAt, lastResult, shown,
                total, new ControllerSnapshot.Counts(reconciles.get(), errors.get(), requeues.get(), retries.get()));
    }

    // ---- events in

    private void onPrimaryEvent(WatchEvent<T> event) {
        if (stopping) {
            return; // watchers cannot drop a listener; a closed controller's stays registered but inert
        }
        if (event instanceof WatchEvent.Apply<T> apply) {
            onPrimaryChange(apply.object());
        } else if (event instanceof WatchEvent.InitApply<T> apply) {
            onPrimaryChange(apply.object());
        } else if (event instanceof WatchEvent.Delete<T> delete) {
            ObjectKey key = ObjectKey.of(delete.object());
            forget(key);
        } else if (event instanceof WatchEvent.InitDone<T>) {
            // A relist sweeps vanished objects from the store without Delete events; forget them here too.
            failures.keySet().removeIf(key -> primary.store().get(key).isEmpty() && forgetBackOff(key));
            lastSeen.keySet().removeIf(key -> primary.store().get(key).isEmpty());
        }
    }

    private void onPrimaryChange(T object) {
        ObjectKey key = ObjectKey.of(object);
        if (filter != null) {
            T previous = lastSeen.put(key, object);
            if (!filter.shouldReconcile(previous, object)) {
                return;
            }
        }
        queue.add(key);
    }

    private void forget(ObjectKey key) {
        failures.remove(key);
        backOff.forget(key);
        lastSeen.remove(key);
    }

    private boolean forgetBackOff(ObjectKey key) {
        backOff.forget(key);
        return true;
    }

    private <S extends KubernetesObject> void subscribe(Secondary<S> secondary) {
        secondary.watcher().addListener(event -> {
            S object = event instanceof WatchEvent.Apply<S> apply ? apply.object()
                    : event instanceof WatchEvent.InitApply<S> apply ? apply.object()
                    : event instanceof WatchEvent.Delete<S> delete ? delete.object() : null;
            if (object != null) {
                Collection<ObjectKey> keys = secondary.mapper().map(object);
                if (keys != null) {
                    keys.forEach(queue::add);
                }
            }
        });
    }

    private void enqueueAll() {
        for (T object : primary.store().list()) {
            ObjectKey key = ObjectKey.of(object);
            if (filter != null) {
                // A watcher started before this controller may have delivered the initial list to the store only;
                // remember those objects, or their first status-only change would look like a first sighting.
                lastSeen.putIfAbsent(key, object);
            }
            queue.add(key);
        }
    }


    // ---- threads

    private Thread newThread(Runnable body, String role) {
        Thread thread = threadFactory.newThread(body);
        thread.setName("watchkeeper-" + name + "-" + role);
        return thread;
    }

    private void work() {
        try {
            CompletableFuture.anyOf(ready, stopped).get();
            while (!stopping) {
                ObjectKey key = queue.take();
                if (key == null) {
                    return;
                }
                try {
                    process(key);
                } finally {
                    queue.done(key);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            log.error("controller {}: readiness failed", name, e);
        }
    }

    private void resync() {
        while (!stopping) {
            double jitter = 0.9 + 0.2 * ThreadLocalRandom.current().nextDouble();
            Instant due = time.clock().instant().plusMillis((long) (settings.resyncPeriod().toMillis() * jitter));
            try {
                synchronized (resyncMonitor) {
                    // TimeSource.await may return early; the loop holds the deadline.
                    while (!stopping && time.clock().instant().isBefore(due)) {
                        time.await(resyncMonitor, Duration.between(time.clock().instant(), due), () -> stopping);
                    }
                }
            } catch (InterruptedException e) {
                return;
            }
            if (!stopping && ready.isDone()) {
                log.debug("controller {}: periodic resync of {} objects", name, primary.store().size());
                enqueueAll();
            }
        }
    }

    // ---- one reconcile

    private void process(ObjectKey key) {
        Optional<T> cached = primary.store().get(key);
        if (cached.isEmpty()) {
            forget(key);
            return;
        }
        T object = cached.get();
        String version = object.getMetadata() == null ? null : object.getMetadata().getResourceVersion();
        Failure failure = failures.get(key);
        if (failure != null && failure.terminal() && Objects.equals(failure.resourceVersion(), version)) {
            return; // a terminal error waits for the object to change
        }
        int attempt = failure == null || failure.terminal() ? 1 : failure.attempts() + 1;
        ReconcileContext context = new DefaultReconcileContext(name, key, attempt, apiClient, primary.type(), object,
                stores, time.clock());
        long start = System.nanoTime();
        ReconcileOutcome outcome;
        try {
            ReconcileResult result = observer.observe(name, key, () -> reconciler.reconcile(object, context));
            outcome = succeeded(key, attempt, result == null ? ReconcileResult.done() : result, start);
        } catch (Throwable thrown) {
            outcome = failed(key, attempt, version, thrown, start);
            if (thrown instanceof VirtualMachineError fatal) {
                finish(outcome);
                throw fatal;
            }
        }
        finish(outcome);
    }

    private ReconcileOutcome succeeded(ObjectKey key, int attempt, ReconcileResult result, long start) {
        failures.remove(key);
        backOff.forget(key);
        if (result.isRequeue()) {
            requeues.incrementAndGet();
            queue.add(key, result.requeueAfter());
            return outcome(key, attempt, ReconcileOutcome.Kind.REQUEUE, result.requeueAfter(), start, null);
        }
        return outcome(key, attempt, ReconcileOutcome.Kind.DONE, null, start, null);
    }

    private ReconcileOutcome failed(ObjectKey key, int attempt, String version, Throwable thrown, long start) {
        errors.incrementAndGet();
        Instant now = time.clock().instant();
        TerminalReconcileException terminal = terminalIn(thrown);
        if (terminal != null) {
            backOff.forget(key);
            failures.put(key, new Failure(attempt, null, null, describe(terminal), true, version,
                    failureOrder.incrementAndGet()));
            log.warn("controller {}: reconcile of {} failed for good, retried when it changes: {}", name, key,
                    terminal.getMessage());
            return outcome(key, attempt, ReconcileOutcome.Kind.TERMINAL, null, start, terminal);
        }
        Duration delay = backOff.next(key);
        failures.put(key, new Failure(attempt, delay, now.plus(delay), describe(thrown), false, version,
                failureOrder.incrementAndGet()));
        queue.add(key, delay);
        log.warn("controller {}: reconcile of {} failed (attempt {}), retrying in {} ms", name, key, attempt,
                delay.toMillis(), thrown);
        return outcome(key, attempt, ReconcileOutcome.Kind.ERROR, delay, start, thrown);
    }

    private ReconcileOutcome outcome(ObjectKey key, int attempt, ReconcileOutcome.Kind kind, Duration next,
            long start, Throwable error) {
        return new ReconcileOutcome(name, key, attempt, kind, next, Duration.ofNanos(System.nanoTime() - start),
                error);
    }

    private void finish(ReconcileOutcome outcome) {
        reconciles.incrementAndGet();
        if (outcome.attempt() > 1) {
            retries.incrementAndGet();
        }
        lastReconcileAt = time.clock().instant();
        lastResult = outcome.kind().word();
        for (ReconcileListener listener : listeners) {
            try {
                listener.onReconcile(outcome);
            } catch (RuntimeException e) {
                log.error("controller {}: a reconcile listener failed", name, e);
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

    private static String describe(Throwable thrown) {
        return thrown.getMessage() == null ? thrown.getClass().getName()
                : thrown.getClass().getName() + ": " + thrown.getMessage();
    }

    /** Builds a {@link Controller}; everything but name, primary watcher and reconciler has a default. */
    public static final class Builder<T extends KubernetesObject> {

        private final String name;
        private final Watcher<T> primary;
        private final ReconcileFunction<T> reconciler;
        private final List<Secondary<?>> secondaries = new ArrayList<>();
        private final List<ReconcileListener> listeners = new ArrayList<>();
        private ControllerSettings settings = ControllerSettings.defaults();
        private TriggerFilter<T> filter;
        private TimeSource time = TimeSource.system();
        private ThreadFactory threadFactory = Builder::daemonThread;
        private ReconcileObserver observer = ReconcileObserver.passThrough();
        private ApiClient apiClient;

        private Builder(String name, Watcher<T> primary, ReconcileFunction<T> reconciler) {
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException("a controller needs a name");
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
            secondaries.add(new Secondary<>(Objects.requireNonNull(secondary, "secondary"),
                    Objects.requireNonNull(mapper, "mapper")));
            return this;
        }

        public Builder<T> settings(ControllerSettings settings) {
            this.settings = Objects.requireNonNull(settings, "settings");
            return this;
        }

        /** A trigger filter of your own; combined with the settings' triggers by "either". */
        public Builder<T> filter(TriggerFilter<T> filter) {
            this.filter = filter;
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

        public Controller<T> build() {
            return new Controller<>(this);
        }

        private static Thread daemonThread(Runnable body) {
            Thread thread = new Thread(body);
            thread.setDaemon(true);
            return thread;
        }
    }
}
