package dev.watchkeeper.autoconfigure.metrics;

import dev.watchkeeper.internal.events.EventCounts;
import dev.watchkeeper.internal.events.EventRecorder;
import dev.watchkeeper.internal.reconcile.Reconciler;
import dev.watchkeeper.internal.registry.WatchkeeperRegistry;
import dev.watchkeeper.internal.shard.ShardCoordinator;
import dev.watchkeeper.internal.shard.Slots;
import dev.watchkeeper.internal.watch.BufferedWatchEventListener;
import dev.watchkeeper.watch.WatchEvent;
import dev.watchkeeper.internal.watch.Watcher;
import dev.watchkeeper.reconcile.DependentsResult;
import dev.watchkeeper.watch.WatcherSnapshot;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;
import org.springframework.context.SmartLifecycle;

/**
 * Micrometer meters of every watcher (tag {@code watcher}) and reconciler (tag {@code reconciler}), bound at start,
 * just before the registry starts them, so every {@code @Reconciler} is known and no event is missed. Gauges read the published snapshots; event and
 * error counters are fed by a listener on each watcher; {@code watchkeeper.listener.dropped} counts the events each
 * {@code @WatchListener} method lost to its full buffer. The reconcile timer {@code watchkeeper.reconcile} and the
 * long task timer of running reconciles {@code watchkeeper.reconcile.active} come from the reconcile
 * {@code Observation} (see {@link ObservationReconcileObserver}). With sharding, {@link #sharding} binds the
 * coordinator's meters.
 */
public class WatchkeeperMetrics implements SmartLifecycle {

    private final WatchkeeperRegistry registry;
    private final MeterRegistry meters;

    private final Supplier<List<BufferedWatchEventListener<?>>> listeners;

    public WatchkeeperMetrics(WatchkeeperRegistry registry, MeterRegistry meters) {
        this(registry, meters, List::of);
    }

    /**
     * @param listeners the {@code @WatchListener} buffers, attached before this binds (phase registry - 2), for
     *                  {@code watchkeeper.listener.dropped}
     */
    public WatchkeeperMetrics(WatchkeeperRegistry registry, MeterRegistry meters,
            Supplier<List<BufferedWatchEventListener<?>>> listeners) {
        this.registry = registry;
        this.meters = meters;
        this.listeners = listeners;
    }

    private volatile boolean running;

    @Override
    public void start() {
        registry.watchers().forEach(this::bind);
        registry.reconcilers().forEach(this::bind);
        listeners.get().forEach(listener -> FunctionCounter.builder("watchkeeper.listener.dropped", listener,
                BufferedWatchEventListener::dropped).description("Events a slow @WatchListener lost to its full buffer")
                .tag("watcher", listener.watcherName()).tag("listener", listener.listenerName()).register(meters));
        running = true;
    }

    @Override
    public void stop() {
        running = false;
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return registry.getPhase() - 1;
    }

    private void bind(Watcher<?> watcher) {
        String name = watcher.name();
        Counter initApply = events(name, "init_apply");
        Counter apply = events(name, "apply");
        Counter delete = events(name, "delete");
        watcher.addListener(event -> {
            if (event instanceof WatchEvent.InitApply<?>) {
                initApply.increment();
            } else if (event instanceof WatchEvent.Apply<?>) {
                apply.increment();
            } else if (event instanceof WatchEvent.Delete<?>) {
                delete.increment();
            } else if (event instanceof WatchEvent.Failure<?> failure) {
                Counter.builder("watchkeeper.watcher.errors").description("Watcher errors by kind")
                        .tag("watcher", name).tag("kind", failure.error().kind().label())
                        .register(meters).increment();
            }
        });
        FunctionCounter.builder("watchkeeper.watcher.relists", watcher, w -> w.snapshot().counts().relists())
                .description("Lists after the first").tag("watcher", name).register(meters);
        TimeGauge.builder("watchkeeper.watcher.backoff.delay", watcher, TimeUnit.MILLISECONDS,
                w -> delayMillis(w.snapshot())).description("The current backoff wait, 0 when not backing off")
                .tag("watcher", name).register(meters);
        Gauge.builder("watchkeeper.watcher.objects", watcher, w -> w.snapshot().objects())
                .description("Objects in the watcher's store").tag("watcher", name).register(meters);
        Gauge.builder("watchkeeper.watcher.synced", watcher, w -> w.snapshot().synced() ? 1 : 0)
                .description("1 when the initial list is done and no relist is pending").tag("watcher", name)
                .register(meters);
        Gauge.builder("watchkeeper.watcher.failures", watcher, w -> w.snapshot().consecutiveFailures())
                .description("Consecutive failures since the last progress").tag("watcher", name).register(meters);
        if (watcher.snapshot().shard() != null) {
            FunctionCounter.builder("watchkeeper.watcher.shard.client.filtered", watcher,
                    w -> w.snapshot().shard().clientFiltered())
                    .description("Objects the API server sent outside the watcher's share, dropped by the watcher")
                    .tag("watcher", name).register(meters);
        }
    }

    private Counter events(String watcher, String type) {
        return Counter.builder("watchkeeper.watcher.events").description("Objects received by event type")
                .tag("watcher", watcher).tag("type", type).register(meters);
    }

    private void bind(Reconciler<?> reconciler) {
        String name = reconciler.name();
        Gauge.builder("watchkeeper.reconcile.queue.depth", reconciler, Reconciler::queueDepth)
                .description("Keys waiting to be reconciled").tag("reconciler", name).register(meters);
        Gauge.builder("watchkeeper.reconcile.queue.priority.depth", reconciler,
                Reconciler::normalPriorityQueueDepth).description("Keys waiting to be reconciled, by priority")
                .tag("reconciler", name).tag("priority", "normal").register(meters);
        Gauge.builder("watchkeeper.reconcile.queue.priority.depth", reconciler, Reconciler::lowPriorityQueueDepth)
                .description("Keys waiting to be reconciled, by priority").tag("reconciler", name)
                .tag("priority", "low").register(meters);
        FunctionCounter.builder("watchkeeper.reconcile.retries", reconciler, c -> c.counts().retries())
                .description("Reconciles that retried an error").tag("reconciler", name).register(meters);
        FunctionCounter.builder("watchkeeper.reconcile.cleanups", reconciler, c -> c.counts().cleanups())
                .description("Cleanups that succeeded and removed the reconciler's finalizer").tag("reconciler", name)
                .register(meters);
        Gauge.builder("watchkeeper.reconcile.failing.keys", reconciler, Reconciler::failingKeys)
                .description("Keys whose latest reconcile failed").tag("reconciler", name).register(meters);
        reconciler.onDependentRun(state -> countDependent(name, state));
        if (reconciler.readYourWrites() != null) {
            FunctionCounter.builder("watchkeeper.reconcile.read.your.writes.waits", reconciler,
                    r -> r.readYourWrites().waits())
                    .description("Reconciles held back until the caches held the reconciler's own writes")
                    .tag("reconciler", name).register(meters);
            FunctionCounter.builder("watchkeeper.reconcile.read.your.writes.timeouts", reconciler,
                    r -> r.readYourWrites().timeouts())
                    .description("Waits for the reconciler's own writes that ended by the timeout")
                    .tag("reconciler", name).register(meters);
        }
    }

    /**
     * Counters per dependent (tags {@code reconciler}, {@code dependent}), registered at its first run:
     * {@code watchkeeper.dependent.applies}, {@code watchkeeper.dependent.unchanged} (applies not sent: the cached
     * object already held the desired state), {@code watchkeeper.dependent.deletes} and
     * {@code watchkeeper.dependent.failures}.
     */
    private void countDependent(String reconciler, DependentsResult.DependentState state) {
        count("watchkeeper.dependent.applies", "Objects a dependent applied (external resources made or changed)",
                reconciler, state.name(), state.applied());
        count("watchkeeper.dependent.unchanged", "Applies a dependent did not send: the object held the desired state",
                reconciler, state.name(), state.unchanged());
        count("watchkeeper.dependent.deletes", "Objects a dependent deleted as no longer desired", reconciler,
                state.name(), state.deleted());
        count("watchkeeper.dependent.failures", "Runs in which a dependent's apply or delete failed", reconciler,
                state.name(), state.phase() == DependentsResult.Phase.FAILED ? 1 : 0);
    }

    private void count(String meter, String description, String reconciler, String dependent, long amount) {
        Counter.builder(meter).description(description).tag("reconciler", reconciler).tag("dependent", dependent)
                .register(meters).increment(amount);
    }

    /**
     * The sharding coordinator's meters, tag {@code group}: gauge {@code watchkeeper.sharding.owned.slots} (the slots
     * this replica reconciles now, of {@value Slots#COUNT}), counter {@code watchkeeper.sharding.handovers}
     * (completed hand-overs) and time gauge {@code watchkeeper.sharding.handover.duration} (the last one's length).
     */
    public static MeterBinder sharding(ShardCoordinator coordinator) {
        String group = coordinator.settings().group();
        return meters -> {
            Gauge.builder("watchkeeper.sharding.owned.slots", coordinator,
                    c -> c.snapshot().activeFraction() * Slots.COUNT)
                    .description("Slots of the uid-hash space this replica reconciles now").tag("group", group)
                    .register(meters);
            FunctionCounter.builder("watchkeeper.sharding.handovers", coordinator, c -> c.snapshot().handOvers())
                    .description("Hand-overs completed: every live member adopted a new assignment")
                    .tag("group", group).register(meters);
            TimeGauge.builder("watchkeeper.sharding.handover.duration", coordinator, TimeUnit.MILLISECONDS,
                    c -> c.snapshot().lastHandOver() == null ? 0 : c.snapshot().lastHandOver().toMillis())
                    .description("How long the last hand-over took").tag("group", group).register(meters);
        };
    }

    /**
     * Counter {@code watchkeeper.events} of the Event recorder, tag {@code outcome}: {@code written} (writes the API
     * server accepted), {@code aggregated} (occurrences counted in an existing Event's series), {@code dropped} (lost
     * to the full queue), {@code rate_limited} (dropped by the per-object spam filter), {@code failed} (writes
     * refused or unanswered).
     */
    public static MeterBinder events(EventRecorder recorder) {
        return meters -> {
            eventCounter(meters, recorder, "written", EventCounts::written);
            eventCounter(meters, recorder, "aggregated", EventCounts::aggregated);
            eventCounter(meters, recorder, "dropped", EventCounts::dropped);
            eventCounter(meters, recorder, "rate_limited", EventCounts::rateLimited);
            eventCounter(meters, recorder, "failed", EventCounts::failed);
        };
    }

    private static void eventCounter(MeterRegistry meters, EventRecorder recorder, String outcome,
            ToDoubleFunction<EventCounts> count) {
        FunctionCounter.builder("watchkeeper.events", recorder, r -> count.applyAsDouble(r.counts()))
                .description("Event occurrences and writes of the Event recorder by outcome").tag("outcome", outcome)
                .register(meters);
    }

    private static double delayMillis(WatcherSnapshot snapshot) {
        Duration delay = snapshot.currentDelay();
        return delay == null ? 0 : delay.toMillis();
    }
}
