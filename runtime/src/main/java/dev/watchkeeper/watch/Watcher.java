package dev.watchkeeper.watch;

import dev.watchkeeper.backoff.BackOffSettings;
import dev.watchkeeper.backoff.BackOffSleeper;
import dev.watchkeeper.backoff.TimeSource;
import dev.watchkeeper.resource.ResolvedResource;
import dev.watchkeeper.resource.ResourceType;
import dev.watchkeeper.store.CacheStore;
import dev.watchkeeper.store.CachedObject;
import dev.watchkeeper.store.Store;
import dev.watchkeeper.text.Plural;
import dev.watchkeeper.watch.http.HttpWatchApi;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.retry.RetryContext;
import org.springframework.retry.RetryPolicy;
import org.springframework.retry.backoff.BackOffContext;
import org.springframework.retry.backoff.BackOffInterruptedException;
import org.springframework.retry.backoff.BackOffPolicy;
import org.springframework.retry.backoff.SleepingBackOffPolicy;

/**
 * Lists and watches one resource in one scope on its own thread, forever: it runs the {@link WatchMachine}, feeds
 * its {@link Store} and listeners, backs off on failures, and publishes a {@link WatcherSnapshot} after every
 * transition.
 *
 * <p>The loop is the project's own; it uses Spring Retry's policies as Spring Retry means them: a
 * {@link RetryPolicy} context is opened per failure streak, told of each failure ({@code registerThrowable}), asked
 * whether to go on ({@code canRetry}) and closed when the streak ends; one {@link BackOffPolicy} context, started
 * again only on retry-now, is asked to wait after each failure (its reset timer, not progress, starts the delays
 * over, as client-go's backoff does). Failures reach listeners as the project's own {@link WatchEvent.Failure}
 * events.
 *
 * <pre>{@code
 * try (Watcher<V1ConfigMap> watcher = Watcher.builder(apiClient, ResourceType.of(V1ConfigMap.class))
 *         .scope(WatchScope.namespace("default"))
 *         .build()) {
 *     watcher.addListener(event -> log.info("{}", event));
 *     watcher.start();
 *     watcher.store().awaitReady(Duration.ofSeconds(30));
 * }
 * }</pre>
 */
public final class Watcher<T extends KubernetesObject> implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Watcher.class);
    private static final Duration CLOSE_WAIT = Duration.ofMillis(900);

    private final String name;
    private final ResourceType<T> type;
    private final WatchScope scope;
    private final WatchApi<T> api;
    private final WatchMachine<T> machine;
    private final TimeSource time;
    private final RetryPolicy retryPolicy;
    private final BackOffPolicy backOffPolicy;
    private final String backOffDescription;
    private final boolean reportsDelays;
    private final BackOffSettings backOffSettings;
    private final BackOffSleeper sleeper;
    private final CacheStore<T> store;
    private final ThreadFactory threadFactory;
    private final Duration streakResetAfter;
    private final List<WatchEventListener<T>> listeners = new CopyOnWriteArrayList<>();
    /** Objects readers of the store found undecodable (on their threads); counted as errors. */
    private final AtomicLong undecodableReads = new AtomicLong();

    private volatile WatcherSnapshot snapshot;
    private volatile boolean closed;
    private volatile boolean backingOff;
    private volatile boolean resetRequested;
    private Thread thread;

    // Written by the watcher thread only; copied into each snapshot.
    private boolean synced;
    private int consecutiveFailures;
    private WatchError lastError;
    private boolean everSynced;
    private Instant lastFailureAt;
    private Instant failingSince;
    private long events;
    private long relists;
    private long errors;
    private final List<WatchEvent.Failure<T>> undecodableListItems = new ArrayList<>();

    private Watcher(Builder<T> builder) {
        this.name = builder.name != null ? builder.name : defaultName(builder.type, builder.scope);
        this.type = builder.type;
        this.scope = builder.scope;
        this.time = builder.time;
        this.api = builder.api != null ? builder.api
                : new HttpWatchApi<>(builder.client, builder.type, builder.scope, builder.options);
        this.machine = new WatchMachine<>(api, builder.options, time.clock());
        this.sleeper = new BackOffSleeper(time, this::onSleep);
        BackOffPolicy policy = builder.backOffPolicy != null ? builder.backOffPolicy
                : builder.backOff.backOffPolicy(time.clock());
        this.backOffPolicy = policy instanceof SleepingBackOffPolicy<?> sleeping ? sleeping.withSleeper(sleeper) : policy;
        this.backOffDescription = backOffPolicy.toString();
        this.reportsDelays = backOffPolicy instanceof SleepingBackOffPolicy<?>;
        this.backOffSettings = builder.backOffPolicy != null ? null : builder.backOff;
        this.retryPolicy = builder.retryPolicy != null ? builder.retryPolicy : builder.backOff.retryPolicy(time.clock());
        this.store = new CacheStore<>(builder.options.stripManagedFields(), this::readerMetUndecodable);
        this.threadFactory = builder.threadFactory;
        this.streakResetAfter = builder.backOff.resetAfter();
        this.snapshot = snapshotOf(WatcherPhase.STARTING, null, null);
    }

    /** Starts building a watcher of {@code type} that talks to the API server through {@code client}. */
    public static <T extends KubernetesObject> Builder<T> builder(ApiClient client, ResourceType<T> type) {
        return new Builder<>(Objects.requireNonNull(client, "client"), null, type);
    }

    /** Starts building a watcher on another {@link WatchApi} (a test double of the transport, say). */
    public static <T extends KubernetesObject> Builder<T> builder(WatchApi<T> api, ResourceType<T> type) {
        return new Builder<>(null, Objects.requireNonNull(api, "api"), type);
    }

    /** The derived name (docs/semantics.md §11): {@code <plural>[.<group>]@<namespace|all>}. */
    public static String defaultName(ResourceType<?> type, WatchScope scope) {
        String selectors = (scope.labelSelector() == null ? "" : scope.labelSelector()) + "|"
                + (scope.fieldSelector() == null ? "" : scope.fieldSelector());
        String hash = "|".equals(selectors) ? "" : "-" + Integer.toHexString(selectors.hashCode() & 0xfffff);
        return type.qualifiedName() + (type.isMetadataOnly() ? "-metadata" : "") + "@"
                + (scope.namespace() == null ? "all" : scope.namespace()) + hash;
    }

    /** Adds a listener; events reach listeners after the store, on the watcher's thread. */
    public void addListener(WatchEventListener<T> listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    /** Starts the watcher's thread; the first step discovers the resource if needed, then lists. */
    public synchronized void start() {
        if (thread != null) {
            throw new IllegalStateException("watcher " + name + " was already started");
        }
        if (closed) {
            throw new IllegalStateException("watcher " + name + " is closed");
        }
        thread = threadFactory != null ? threadFactory.newThread(this::run) : new Thread(this::run);
        thread.setName("watchkeeper-" + name);
        thread.start();
    }

    /** Ends the current backoff wait and starts the backoff over (e.g. after fixing RBAC or installing a CRD). */
    public void retryNow() {
        resetRequested = true;
        if (backingOff) {
            sleeper.wakeUp();
        }
    }

    /** Stops the watcher: ends any wait or open watch and returns within about a second. */
    @Override
    public void close() {
        Thread running;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            running = thread;
        }
        sleeper.close();
        // Cancelling the call ends a blocked read; the watcher's own thread then closes the stream, since closing
        // an OkHttp response from another thread while it is read is not safe.
        api.abort();
        if (running == null) {
            snapshot = snapshotOf(WatcherPhase.STOPPED, null, null);
            return;
        }
        running.interrupt();
        try {
            running.join(CLOSE_WAIT.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (running.isAlive()) {
            log.warn("watcher {} did not stop within {} ms", name, CLOSE_WAIT.toMillis());
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

    /** The latest published state. */
    public WatcherSnapshot snapshot() {
        return snapshot;
    }

    /** Whether the watcher's thread is still running. */
    public boolean isRunning() {
        Thread running = thread;
        return running != null && running.isAlive();
    }

    private void run() {
        WatchState<T> state = new WatchState.Empty<>();
        RetryContext streak = retryPolicy.open(null);
        BackOffContext backOffContext = backOffPolicy.start(streak);
        try {
            while (!closed) {
                Step<T> step = safeStep(state);
                state = step.next();
                if (closed) {
                    break;
                }
                step.events().forEach(this::deliver);
                deliverUndecodableListItems();
                logFailuresRetriedAtOnce(step);
                if (step.outcome() == Step.Outcome.PROGRESS) {
                    logRecovery();
                    consecutiveFailures = 0;
                    if (streak.getRetryCount() > 0) {
                        streak = endStreak(streak);
                    }
                }
                if (step.outcome() != Step.Outcome.BACK_OFF) {
                    publish(phaseOf(state));
                    continue;
                }
                Instant failedAt = time.clock().instant();
                if (lastFailureAt != null && streak.getRetryCount() > 0
                        && Duration.between(lastFailureAt, failedAt).compareTo(streakResetAfter) > 0) {
                    // The reset timer ends a streak as a success does (docs/semantics.md §6).
                    streak = endStreak(streak);
                }
                lastFailureAt = failedAt;
                WatchFailureException failure = new WatchFailureException(step.error());
                retryPolicy.registerThrowable(streak, failure);
                if (consecutiveFailures++ == 0) {
                    failingSince = failedAt;
                }
                if (!retryPolicy.canRetry(streak)) {
                    log.error("watcher {} gives up after failing for longer than its backoff allows: {}", name,
                            step.error().message());
                    break;
                }
                if (resetRequested) {
                    resetRequested = false;
                    backOffContext = backOffPolicy.start(streak);
                }
                if (!reportsDelays) {
                    // A policy that sleeps by itself never calls onSleep, which logs the failure with its delay.
                    log.warn("watcher {}: {}; backing off as its own policy decides", name, step.error().message());
                }
                sleeper.atLeast(step.error().retryAfter());
                backingOff = true;
                try {
                    backOffPolicy.backOff(backOffContext);
                } finally {
                    backingOff = false;
                }
                if (resetRequested) {
                    resetRequested = false;
                    backOffContext = backOffPolicy.start(streak);
                }
                publish(phaseOf(state));
            }
        } catch (BackOffInterruptedException interrupted) {
            if (!closed) {
                log.warn("watcher {} stops: its backoff was interrupted", name);
            }
        } finally {
            if (state instanceof WatchState.Watching<T> watching) {
                watching.stream().close();
            }
            publish(WatcherPhase.STOPPED);
        }
    }

    /** The machine never throws for API trouble; anything else is a bug that must not kill the thread. */
    private Step<T> safeStep(WatchState<T> state) {
        try {
            return machine.step(state);
        } catch (RuntimeException bug) {
            if (closed) {
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

    private void deliver(WatchEvent<T> event) {
        if (!(event instanceof WatchEvent.InitApply<T>)) {
            deliverUndecodableListItems();
        }
        if (event instanceof WatchEvent.InitDone<T>) {
            // Objects deleted while the watch was down: reported as deletes before InitDone (docs/semantics.md §1).
            for (CachedObject<T> gone : store.sweep()) {
                deliver(new WatchEvent.Delete<>(gone, true));
            }
        }
        if (event instanceof WatchEvent.Init<T>) {
            if (everSynced) {
                relists++;
            }
            synced = false;
        } else if (event instanceof WatchEvent.InitDone<T>) {
            synced = true;
            everSynced = true;
        } else if (event instanceof WatchEvent.Failure<T> failure) {
            errors++;
            lastError = failure.error();
        } else {
            events++;
        }
        store.onEvent(event);
        CachedObject<T> object = objectOf(event);
        boolean readable = true;
        boolean checked = false;
        for (WatchEventListener<T> listener : listeners) {
            if (object != null && listener.readsObjects()) {
                if (!checked) {
                    readable = object.decoded() != null;
                    checked = true;
                }
                if (!readable) {
                    continue;
                }
            }
            try {
                listener.onEvent(event);
            } catch (Throwable thrown) {
                if (FatalErrors.isFatal(thrown)) {
                    stopFor(thrown, event);
                    throw thrown;
                }
                log.error("listener of watcher {} failed on {}", name, event.getClass().getSimpleName(), thrown);
            }
        }
        if (!readable && object.claimReport()) {
            reportUndecodable(event, object);
        }
    }

    private static <T> CachedObject<T> objectOf(WatchEvent<T> event) {
        return event instanceof WatchEvent.Apply<T> apply ? apply.cached()
                : event instanceof WatchEvent.InitApply<T> apply ? apply.cached()
                : event instanceof WatchEvent.Delete<T> delete ? delete.cached() : null;
    }

    /**
     * Listeners that read objects were not handed {@code event}, whose model cannot be decoded: they get a
     * {@code DecodeFailed} failure instead, right after it, or, for an object of a list page, after the page's
     * objects (docs/semantics.md §7).
     */
    private void reportUndecodable(WatchEvent<T> event, CachedObject<T> object) {
        WatchError error = new WatchError(ErrorKind.DECODE_FAILED, 0, "skipped " + object.problem(),
                time.clock().instant());
        log.warn("watcher {}: {}", name, error.message());
        if (event instanceof WatchEvent.InitApply<T>) {
            undecodableListItems.add(new WatchEvent.Failure<>(error));
        } else {
            deliver(new WatchEvent.Failure<>(error));
        }
    }

    /** The failures of list items that could not be decoded, once the page's objects are delivered. */
    private void deliverUndecodableListItems() {
        while (!undecodableListItems.isEmpty()) {
            deliver(undecodableListItems.remove(0));
        }
    }

    /**
     * A reader of the store met an object whose model cannot be decoded (first for this version): it is not served.
     * Reported here, on the reader's thread, and counted in the next snapshot.
     */
    private void readerMetUndecodable(CachedObject<T> object) {
        undecodableReads.incrementAndGet();
        log.warn("watcher {}: skipped {}; it is not served until a newer version arrives", name, object.problem());
    }

    /** A listener threw a fatal error: it becomes the last error of the STOPPED snapshot {@link #run} publishes. */
    private void stopFor(Throwable fatal, WatchEvent<T> event) {
        errors++;
        lastError = new WatchError(ErrorKind.WATCH_FAILED, 0, "a listener threw " + fatal.getClass().getName()
                + " on " + event.getClass().getSimpleName() + "; the watcher stopped", time.clock().instant());
        log.error("watcher {} stops: a listener threw {} on {}", name, fatal.getClass().getName(),
                event.getClass().getSimpleName(), fatal);
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

    private void logRecovery() {
        if (consecutiveFailures > 0) {
            Duration failing = Duration.between(failingSince, time.clock().instant());
            log.info("watcher {} recovered after {} in {}", name, Plural.count(consecutiveFailures, "failure"),
                    String.format(Locale.ROOT, "%.1f s", failing.toMillis() / 1000.0));
        }
    }

    private void onSleep(Duration delay, Instant nextAttemptAt) {
        WatchError error = lastError;
        log.warn("watcher {}: {}; backing off for {} ms", name, error == null ? "a failure" : error.message(),
                delay.toMillis());
        snapshot = snapshotOf(WatcherPhase.BACKING_OFF, delay, nextAttemptAt);
    }

    private void publish(WatcherPhase phase) {
        snapshot = snapshotOf(phase, null, null);
    }

    private WatcherSnapshot snapshotOf(WatcherPhase phase, Duration delay, Instant nextAttemptAt) {
        ResolvedResource resolved = machine.resolvedResource();
        String resource = resolved != null ? resolved.toString() : type.apiVersion() + "/" + type.likelyPlural();
        return new WatcherSnapshot(name, resource, scope.namespace(), scope.labelSelector(), scope.fieldSelector(),
                phase, synced && phase != WatcherPhase.STOPPED, store.size(), machine.syncedVersion(), consecutiveFailures,
                delay, nextAttemptAt, lastError,
                new WatcherSnapshot.Counts(events, relists, errors + undecodableReads.get()), backOffDescription, backOffSettings);
    }

    private WatcherPhase phaseOf(WatchState<T> state) {
        if (state instanceof WatchState.InitListed<T>) {
            return WatcherPhase.WATCHING;
        }
        if (state instanceof WatchState.Watching<T> watching) {
            return watching.initial() ? WatcherPhase.LISTING : WatcherPhase.WATCHING;
        }
        return WatcherPhase.LISTING;
    }

    /** Progress ends a failure streak: the max-elapsed-time clock starts again at the next failure. */
    private RetryContext endStreak(RetryContext streak) {
        retryPolicy.close(streak);
        return retryPolicy.open(null);
    }

    /** Builds a {@link Watcher}; everything but the client and type has a default. */
    public static final class Builder<T extends KubernetesObject> {

        private final ApiClient client;
        private final WatchApi<T> api;
        private final ResourceType<T> type;
        private String name;
        private WatchScope scope = WatchScope.allNamespaces();
        private WatchOptions options = WatchOptions.defaults();
        private BackOffSettings backOff = BackOffSettings.clientGo();
        private BackOffPolicy backOffPolicy;
        private RetryPolicy retryPolicy;
        private TimeSource time = TimeSource.system();
        private ThreadFactory threadFactory;

        private Builder(ApiClient client, WatchApi<T> api, ResourceType<T> type) {
            this.client = client;
            this.api = api;
            this.type = Objects.requireNonNull(type, "type");
        }

        /** The name in logs, state and metrics; default derived from resource, scope and selectors. */
        public Builder<T> name(String name) {
            this.name = name;
            return this;
        }

        public Builder<T> scope(WatchScope scope) {
            this.scope = Objects.requireNonNull(scope, "scope");
            return this;
        }

        public Builder<T> options(WatchOptions options) {
            this.options = Objects.requireNonNull(options, "options");
            return this;
        }

        /** The backoff numbers; default client-go's. */
        public Builder<T> backOff(BackOffSettings backOff) {
            this.backOff = Objects.requireNonNull(backOff, "backOff");
            return this;
        }

        /**
         * A backoff policy of your own instead of {@link #backOff(BackOffSettings)}'s; if it is a
         * {@link SleepingBackOffPolicy} its delays show in the snapshot, otherwise they show as unknown.
         */
        public Builder<T> backOffPolicy(BackOffPolicy policy) {
            this.backOffPolicy = policy;
            return this;
        }

        /** A retry policy of your own instead of the max-elapsed-time one of {@link #backOff(BackOffSettings)}. */
        public Builder<T> retryPolicy(RetryPolicy policy) {
            this.retryPolicy = policy;
            return this;
        }

        /** Clock and waiting; tests pass a virtual one. */
        public Builder<T> timeSource(TimeSource time) {
            this.time = Objects.requireNonNull(time, "time");
            return this;
        }

        /** Where the watcher's thread comes from (virtual threads, say); default a new platform thread. */
        public Builder<T> threadFactory(ThreadFactory threadFactory) {
            this.threadFactory = threadFactory;
            return this;
        }

        public Watcher<T> build() {
            return new Watcher<>(this);
        }
    }
}
