package dev.watchkeeper.internal.watch;

import dev.watchkeeper.watch.ErrorKind;
import dev.watchkeeper.watch.WatchError;
import dev.watchkeeper.watch.WatchEvent;
import dev.watchkeeper.watch.WatchEventListener;
import dev.watchkeeper.watch.WatcherPhase;
import dev.watchkeeper.watch.WatcherSnapshot;
import dev.watchkeeper.internal.backoff.TimeSource;
import dev.watchkeeper.internal.resource.ResourceType;
import dev.watchkeeper.internal.shard.Slots;
import dev.watchkeeper.internal.store.CacheStore;
import dev.watchkeeper.internal.store.IndexStats;
import dev.watchkeeper.store.CachedObject;
import dev.watchkeeper.store.ObjectKey;
import dev.watchkeeper.store.Indexer;
import dev.watchkeeper.store.Store;
import io.kubernetes.client.common.KubernetesObject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.retry.backoff.BackOffInterruptedException;

/**
 * Lists and watches one resource in one scope on its own thread, forever: a loop of step, deliver, wait. It runs the
 * {@link WatchMachine}, writes what each step yields to its {@link CacheStore}, hands the events to its
 * {@link ListenerFanOut}, waits after failures as its {@link FailureStreak} says, and publishes a
 * {@link WatcherSnapshot} after every transition through its {@link WatcherSnapshots}. Its {@link WatcherThread} is the
 * thread and whether it is closed. Data flows one way: the store is written by the watcher and knows nothing of it.
 *
 * <p>The watcher does not make its transport: it is handed a {@link WatchApi} (or a {@link WatchApi.Factory}); the
 * HTTP one comes from {@code HttpWatchApi.watcher(client, type)}.
 *
 * <pre>{@code
 * try (Watcher<V1ConfigMap> watcher = HttpWatchApi.watcher(apiClient, ResourceType.of(V1ConfigMap.class))
 *         .scope(WatchScope.namespace("default"))
 *         .build()) {
 *     watcher.addListener(event -> log.info("{}", event));
 *     watcher.start();
 *     watcher.store().awaitReady(Duration.ofSeconds(30));
 * }
 * }</pre>
 *
 * <p>A sharded watcher ({@link WatcherBuilder#shardFilter}) holds only the objects whose uid hashes into the slots it was last
 * given ({@link #reshard}), and nothing before the first; its {@link ShardAssignment} hands the slots to the thread
 * (docs/sharding.md).
 */
public final class Watcher<T extends KubernetesObject> implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Watcher.class);

    private final String name;
    private final ResourceType<T> type;
    private final WatchScope scope;
    private final WatchApi<T> api;
    private final WatchMachine<T> machine;
    private final TimeSource time;
    private final CacheStore<T> store;
    private final ListenerFanOut<T> fanOut;
    private final FailureStreak streak;
    /** The share of a sharded watcher, {@code null} when not sharded. */
    private final ShardAssignment<T> shards;
    private final WatcherSnapshots<T> snapshots;
    private final WatcherThread thread;
    /**
     * Held while a step's events go to the store and the listeners, and while a late listener catches up, so that
     * one sees each event either in its catch-up or live, never both or neither.
     */
    private final ReentrantLock delivery = new ReentrantLock();
    /** Whether a (re)list has begun ({@code Init} delivered), and whether the latest one is done; under delivery. */
    private boolean listing;
    private boolean listed;

    Watcher(WatcherBuilder<T> builder) {
        this.name = builder.name != null ? builder.name : builder.scope.derivedWatcherName(builder.type);
        this.type = builder.type;
        this.scope = builder.scope;
        this.time = builder.time;
        this.api = Objects.requireNonNull(builder.transport.create(builder.scope, builder.options), "transport");
        this.machine = new WatchMachine<>(api, builder.options, time.clock(), builder.shardFilter);
        this.store = new CacheStore<>(name, builder.options.stripManagedFields());
        EventTally tally = new EventTally();
        this.fanOut = new ListenerFanOut<>(name, tally, time.clock());
        this.streak = new FailureStreak(name,
                builder.retryPolicy != null ? builder.retryPolicy : builder.backOff.retryPolicy(time.clock()),
                builder.backOffPolicy != null ? builder.backOffPolicy : builder.backOff.backOffPolicy(),
                builder.backOff.resetAfter(), time, this::backingOff);
        this.shards = builder.shardFilter == null ? null
                : new ShardAssignment<>(name, builder.shardFilter, api, machine, store);
        this.snapshots = new WatcherSnapshots<>(name, type, scope, machine, store, tally, streak,
                builder.backOffPolicy != null ? null : builder.backOff, shards);
        this.thread = new WatcherThread(name, builder.threadFactory);
    }

    /** Starts building a watcher on {@code api} (a test double of the transport, say), whatever its scope. */
    public static <T extends KubernetesObject> WatcherBuilder<T> builder(WatchApi<T> api, ResourceType<T> type) {
        Objects.requireNonNull(api, "api");
        return new WatcherBuilder<>((scope, options) -> api, type);
    }

    /** Starts building a watcher whose {@link WatchApi} {@code transport} makes for its scope and options. */
    public static <T extends KubernetesObject> WatcherBuilder<T> builder(WatchApi.Factory<T> transport, ResourceType<T> type) {
        return new WatcherBuilder<>(Objects.requireNonNull(transport, "transport"), type);
    }

    /**
     * Adds a listener; any thread, before or after {@link #start}. Events reach listeners after the store, on the
     * watcher's thread. A listener added once the watcher has begun to list first catches up, on the calling thread,
     * as client-go's informers do for a late handler: {@code Init}, an {@code InitApply} for each object the store holds
     * (by namespace and name),
     * and {@code InitDone} unless the list is still under way (then the rest of it follows live), so it misses
     * nothing the others were handed.
     */
    public void addListener(WatchEventListener<T> listener) {
        delivery.lock();
        try {
            fanOut.add(listener, catchUp());
        } finally {
            delivery.unlock();
        }
    }

    /** What a listener added now must be handed to know what the others know; under delivery. */
    private List<WatchEvent<T>> catchUp() {
        if (!listing && !listed) {
            return List.of();
        }
        List<WatchEvent<T>> events = new ArrayList<>();
        events.add(new WatchEvent.Init<>());
        store.cachedObjects().forEach(cached -> events.add(new WatchEvent.InitApply<>(cached)));
        if (!listing) {
            events.add(new WatchEvent.InitDone<>());
        }
        return events;
    }

    /** Starts the watcher's thread; the first step discovers the resource if needed, then lists. */
    public void start() {
        thread.start(this::run);
    }

    /** Ends the current backoff wait and starts the backoff over (e.g. after fixing RBAC or installing a CRD). */
    public void retryNow() {
        streak.retryNow();
    }

    /**
     * Gives a sharded watcher the slots it holds from now on; any thread. The watcher starts over at once (no
     * backoff, no failure counted) with a relist of the new share: objects still in it are replaced in place, those
     * that left are swept and delivered as final-state-unknown deletes before {@code InitDone}, those that came are
     * listed in; then it watches the new share. With no slots it empties its store the same way and makes no request
     * until it is given some.
     *
     * @throws IllegalStateException when the watcher was not built with a {@link WatcherBuilder#shardFilter}
     */
    public void reshard(Slots slots) {
        Objects.requireNonNull(slots, "slots");
        if (shards == null) {
            throw new IllegalStateException("watcher " + name + " is not sharded");
        }
        shards.assign(slots, streak::wakeUp);
    }

    /** Stops the watcher: ends any wait or open watch and returns within about a second. */
    @Override
    public void close() {
        if (!thread.markClosed()) {
            return;
        }
        if (shards != null) {
            shards.close();
        }
        streak.close();
        // Cancelling the call ends a blocked read; the watcher's own thread then closes the stream, since closing
        // an OkHttp response from another thread while it is read is not safe.
        api.abort();
        if (!thread.stop()) {
            snapshots.publish(WatcherPhase.STOPPED); // never started: no thread publishes it
        }
    }

    public String name() {
        return name;
    }

    public ResourceType<T> type() {
        return type;
    }

    public WatchScope scope() {
        return scope;
    }

    /** The watcher's cache. */
    public Store<T> store() {
        return store;
    }

    /** The resourceVersion the cache holds of {@code key}, read without decoding; {@code null} when none. */
    public String cachedVersion(ObjectKey key) {
        return store.cached(key).map(CachedObject::resourceVersion).orElse(null);
    }

    /**
     * Adds a custom index to the store, built over what it holds; any thread, before or after {@link #start}. The
     * same index (name and function) again is kept once.
     *
     * @throws IllegalStateException when the name is built in or the store has another index of that name
     */
    public void addIndex(Indexer<T> indexer) {
        store.addIndex(indexer);
    }

    /** What each index of the store holds (docs/semantics.md §8). */
    public List<IndexStats> indexStats() {
        return store.indexStats();
    }

    /** The latest published state. */
    public WatcherSnapshot snapshot() {
        return snapshots.latest();
    }

    /** Whether the watcher's thread is still running. */
    public boolean isRunning() {
        return thread.isRunning();
    }

    private void run() {
        WatchState<T> state = new WatchState.Empty<>();
        try {
            while (!thread.closed()) {
                if (shards != null) {
                    state = shards.follow(state);
                    if (state == null) {
                        break;
                    }
                }
                Step<T> step = safeStep(state);
                state = step.next();
                if (thread.closed()) {
                    break;
                }
                if (shards != null && shards.superseded()) {
                    // What the step yielded is for the old share, and neither progress nor failure; the next turn
                    // relists the new one.
                    continue;
                }
                deliver(step.events());
                logFailuresRetriedAtOnce(step);
                if (step.outcome() == Step.Outcome.PROGRESS) {
                    streak.progressed();
                } else if (step.outcome() == Step.Outcome.BACK_OFF) {
                    if (!streak.failed(step.error())) {
                        break;
                    }
                    streak.await(step.error());
                }
                snapshots.publish(state);
            }
        } catch (BackOffInterruptedException interrupted) {
            if (!thread.closed()) {
                log.warn("watcher {} stops: its backoff was interrupted", name);
            }
        } finally {
            if (state instanceof WatchState.Watching<T> watching) {
                watching.stream().close();
            }
            snapshots.publish(WatcherPhase.STOPPED);
        }
    }

    /** The machine never throws for API trouble; anything else is a bug that must not kill the thread. */
    private Step<T> safeStep(WatchState<T> state) {
        try {
            return machine.step(state);
        } catch (RuntimeException bug) {
            if (thread.closed()) {
                return Step.proceed(List.of(), state);
            }
            log.error("watcher {} hit an unexpected error; relisting after backoff", name, bug);
            if (state instanceof WatchState.Watching<T> watching) {
                watching.stream().close();
            }
            return Step.backOff(new WatchError(ErrorKind.WATCH_FAILED, 0,
                    "unexpected " + bug.getClass().getSimpleName() + " in the watcher; relisting",
                    time.clock().instant()), new WatchState.Empty<>());
        }
    }

    /** Each event goes to the store first, then to the listeners (docs/semantics.md §1). */
    private void deliver(List<WatchEvent<T>> events) {
        delivery.lock();
        try {
            deliverLocked(events);
        } finally {
            delivery.unlock();
        }
    }

    private void deliverLocked(List<WatchEvent<T>> events) {
        for (WatchEvent<T> received : events) {
            WatchEvent<T> event = shards == null ? received : shards.admit(received);
            if (event == null) {
                continue;
            }
            if (event instanceof WatchEvent.Init<T>) {
                store.startRelist();
                listing = true;
            } else if (event instanceof WatchEvent.InitApply<T> apply) {
                store.apply(apply.cached());
            } else if (event instanceof WatchEvent.Apply<T> apply) {
                store.apply(apply.cached());
            } else if (event instanceof WatchEvent.Delete<T> delete) {
                store.delete(delete.cached().key());
            } else if (event instanceof WatchEvent.InitDone<T>) {
                fanOut.flush();
                // Objects deleted while the watch was down: reported as deletes before InitDone (semantics §1, §8).
                for (CachedObject<T> gone : store.finishRelist()) {
                    fanOut.deliver(new WatchEvent.Delete<>(gone, true));
                }
                listing = false;
                listed = true;
            }
            fanOut.deliver(event);
        }
        fanOut.flush();
    }

    /**
     * Logs each failure of a step that goes on without waiting: a skipped object (WARN), a first 410 or the
     * {@code AUTO} fallback (INFO). The failure a step backs off for is logged once, with its delay, when the wait
     * begins (or when the watcher gives up).
     */
    private void logFailuresRetriedAtOnce(Step<T> step) {
        for (WatchEvent<T> event : step.events()) {
            if (event instanceof WatchEvent.Failure<T> failure && failure.error() != step.error()) {
                if (failure.error().kind() == ErrorKind.DECODE_FAILED) {
                    log.warn("watcher {}: {}", name, failure.error().message());
                } else {
                    log.info("watcher {}: {}", name, failure.error().message());
                }
            }
        }
    }

    /** The streak's wait begins; a method, as the streak is made before the snapshots it reports to. */
    private void backingOff(Duration delay, Instant nextAttemptAt) {
        snapshots.backingOff(delay, nextAttemptAt);
    }
}
