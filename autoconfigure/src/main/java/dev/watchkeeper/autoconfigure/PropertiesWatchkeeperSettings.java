package dev.watchkeeper.autoconfigure;

import dev.watchkeeper.autoconfigure.WatcherProperties.BackoffOverrides;
import dev.watchkeeper.autoconfigure.ReconcilerProperties.RateLimitOverrides;
import dev.watchkeeper.autoconfigure.ReconcilerProperties.ReadYourWritesOverride;
import dev.watchkeeper.autoconfigure.WatcherProperties.WatchOverrides;
import dev.watchkeeper.autoconfigure.ReconcilerProperties.WriteBudgetOverrides;
import dev.watchkeeper.internal.backoff.BackOffSettings;
import dev.watchkeeper.internal.reconcile.RateLimit;
import dev.watchkeeper.internal.reconcile.ReconcilerSettings;
import dev.watchkeeper.internal.registry.WatchkeeperSettings;
import dev.watchkeeper.internal.settings.InvalidSettingException;
import dev.watchkeeper.internal.watch.WatchOptions;
import java.time.Duration;
import org.springframework.retry.backoff.BackOffPolicy;

/**
 * {@link WatchkeeperSettings} from {@code watchkeeper.*} properties: global values, overridden per watcher
 * ({@code watchkeeper.watchers.<name>.*}) and per reconciler ({@code watchkeeper.reconcilers.<name>.*}); where the
 * annotation sets a value too ({@code concurrency}, {@code debounce}), {@link ReconcilerOverrides} decides. User
 * {@link BackOffPolicy} beans, when given, replace the property-built policies. The runtime's records check the
 * values; a refused one fails with a {@link WatchkeeperPropertyException} naming the property it came from
 * ({@link PropertyLayers}).
 */
class PropertiesWatchkeeperSettings implements WatchkeeperSettings {

    private static final String WATCHERS = "watchkeeper.watchers";
    private static final String RECONCILERS = "watchkeeper.reconcilers";

    private final WatchkeeperProperties properties;
    private final ReconcilerOverrides overrides;
    private final BackOffPolicy watcherPolicy;
    private final BackOffPolicy reconcilePolicy;

    /**
     * @param watcherPolicy   a user policy for every watcher, or {@code null}
     * @param reconcilePolicy a user per-object policy for every reconciler, or {@code null}
     */
    public PropertiesWatchkeeperSettings(WatchkeeperProperties properties, BackOffPolicy watcherPolicy,
            BackOffPolicy reconcilePolicy) {
        this.properties = properties;
        this.overrides = ReconcilerOverrides.of(properties.reconcilers());
        this.watcherPolicy = watcherPolicy;
        this.reconcilePolicy = reconcilePolicy;
        validate();
    }

    @Override
    public WatchOptions watchOptions(String watcherName) {
        WatchkeeperProperties.Watch global = properties.watch();
        WatchOverrides own = watcherName == null ? null : watcher(watcherName).watch();
        WatchOverrides o = own != null ? own : WatchOverrides.NONE;
        PropertyLayers layers = layers("watchkeeper.watch", global, WATCHERS, watcherName, "watch", own);
        return layers.build(() -> WatchOptions.defaults()
                .withPageSize(pick(o.pageSize(), global.pageSize()))
                .withTimeout(pick(o.timeout(), global.timeout()))
                .withInitialList(pick(o.initialList(), global.initialList()))
                .withListSemantics(pick(o.listSemantics(), global.listSemantics()))
                .withStripManagedFields(pick(o.stripManagedFields(), global.stripManagedFields()))
                .withAutoFallbackAfter(pick(o.autoFallbackAfter(), global.autoFallbackAfter()))
                .withMaxEventSize(pick(o.maxEventSize(), global.maxEventSize())));
    }

    @Override
    public BackOffSettings watcherBackOff(String watcherName) {
        WatchkeeperProperties.Backoff global = properties.backoff();
        BackoffOverrides own = watcherName == null ? null : watcher(watcherName).backoff();
        BackoffOverrides o = own != null ? own : BackoffOverrides.NONE;
        PropertyLayers layers = layers("watchkeeper.backoff", global, WATCHERS, watcherName, "backoff", own);
        return layers.build(() -> new BackOffSettings(
                pick(o.initialInterval(), global.initialInterval()), pick(o.multiplier(), global.multiplier()),
                pick(o.maxInterval(), global.maxInterval()), pick(o.jitter(), global.jitter()),
                pick(o.resetAfter(), global.resetAfter()), pick(o.maxElapsedTime(), global.maxElapsedTime())));
    }

    @Override
    public BackOffPolicy watcherBackOffPolicy(String watcherName) {
        return watcherPolicy;
    }

    @Override
    public ReconcilerSettings reconciler(String reconcilerName, int annotationConcurrency,
            Duration annotationDebounce) {
        return reconciler(reconcilerName, annotationConcurrency, annotationDebounce, null);
    }

    @Override
    public ReconcilerSettings reconciler(String reconcilerName, int annotationConcurrency,
            Duration annotationDebounce, Duration annotationTimeout) {
        WatchkeeperProperties.Reconcile global = properties.reconcile();
        ReconcilerProperties own = reconcilerName == null ? null : properties.reconcilers().get(reconcilerName);
        ReconcilerProperties o = own != null ? own : ReconcilerProperties.NONE;
        PropertyLayers layers = PropertyLayers.of("watchkeeper.reconcile", global);
        if (own != null) {
            layers = layers.over(PropertyLayers.entry(RECONCILERS, reconcilerName), own);
        }
        ReconcilerSettings settings = layers.build(() -> ReconcilerSettings.defaults()
                .withConcurrency(overrides.concurrency(reconcilerName, annotationConcurrency))
                .withShutdownGrace(global.shutdownGrace())
                .withResyncPeriod(pick(o.resyncPeriod(), global.resyncPeriod()))
                .withDebounce(overrides.debounce(reconcilerName, annotationDebounce, global.debounce()))
                .withShutdownDrain(pick(o.shutdownDrain(), global.shutdownDrain()))
                .withMaxLowPriorityWait(pick(o.maxLowPriorityWait(), global.maxLowPriorityWait()))
                .withTimeout(overrides.timeout(reconcilerName, annotationTimeout, global.timeout())))
                .withRateLimit(rateLimit(reconcilerName, o.rateLimit()))
                .withWriteBudget(writeBudget(reconcilerName, o.writeBudget()));
        settings = withReadYourWrites(settings, reconcilerName, o.readYourWrites());
        return reconcilePolicy != null
                ? settings.withBackOffPolicy(reconcilePolicy)
                : settings.withBackOff(reconcileBackOff(reconcilerName, o.backoff()));
    }

    @Override
    public boolean sharded(String reconcilerName) {
        return overrides.sharded(reconcilerName, properties.sharding().enabled());
    }

    @Override
    public boolean statusConditions(String reconcilerName) {
        return overrides.statusConditions(reconcilerName, properties.reconcile().statusConditions().enabled());
    }

    /** The per-object curve; the reset timer and max elapsed time of watchers do not apply to it. */
    BackOffSettings reconcileBackOff(String reconcilerName, BackoffOverrides own) {
        WatchkeeperProperties.ReconcileBackoff global = properties.reconcile().backoff();
        BackoffOverrides o = own != null ? own : BackoffOverrides.NONE;
        PropertyLayers layers = layers("watchkeeper.reconcile.backoff", global, RECONCILERS, reconcilerName,
                "backoff", own);
        return layers.build(() -> new BackOffSettings(pick(o.initialInterval(), global.initialInterval()),
                pick(o.multiplier(), global.multiplier()), pick(o.maxInterval(), global.maxInterval()),
                pick(o.jitter(), global.jitter()), Duration.ZERO, null));
    }

    /** {@code settings} with the reconciler's read-your-writes timeout; a refused one names its property. */
    private ReconcilerSettings withReadYourWrites(ReconcilerSettings settings, String reconcilerName,
            ReadYourWritesOverride own) {
        WatchkeeperProperties.ReadYourWrites global = properties.reconcile().readYourWrites();
        PropertyLayers layers = layers("watchkeeper.reconcile.read-your-writes", global, RECONCILERS, reconcilerName,
                "read-your-writes", own);
        Duration timeout = pick(own == null ? null : own.timeout(), global.timeout());
        try {
            return settings.withReadYourWritesTimeout(timeout);
        } catch (InvalidSettingException refused) {
            throw WatchkeeperPropertyException.invalid(layers.property("timeout"), refused.value(), refused.rule());
        }
    }

    /** The overall retry bucket, or {@code null} when it is off; its numbers are checked even then. */
    private RateLimit rateLimit(String reconcilerName, RateLimitOverrides own) {
        WatchkeeperProperties.ReconcileRateLimit global = properties.reconcile().rateLimit();
        RateLimitOverrides o = own != null ? own : RateLimitOverrides.NONE;
        PropertyLayers layers = layers("watchkeeper.reconcile.rate-limit", global, RECONCILERS, reconcilerName,
                "rate-limit", own);
        RateLimit limit = layers.build(() -> new RateLimit(pick(o.qps(), global.qps()),
                pick(o.burst(), global.burst())));
        return pick(o.enabled(), global.enabled()) ? limit : null;
    }

    /** The bucket on reconciles' writes, or {@code null} when it is off; its numbers are checked even then. */
    private RateLimit writeBudget(String reconcilerName, WriteBudgetOverrides own) {
        WatchkeeperProperties.WriteBudget global = properties.reconcile().writeBudget();
        WriteBudgetOverrides o = own != null ? own : WriteBudgetOverrides.NONE;
        PropertyLayers layers = layers("watchkeeper.reconcile.write-budget", global, RECONCILERS, reconcilerName,
                "write-budget", own);
        RateLimit budget = layers.build(() -> new RateLimit(pick(o.qps(), global.qps()),
                pick(o.burst(), global.burst())));
        return pick(o.enabled(), global.enabled()) ? budget : null;
    }

    /**
     * The global values under {@code globalPrefix}, and over them, if any, the {@code group} of entry {@code name} of
     * the map {@code map} ({@code watchkeeper.watchers.cms.backoff}).
     */
    private static PropertyLayers layers(String globalPrefix, Record global, String map, String name, String group,
            Record own) {
        PropertyLayers layers = PropertyLayers.of(globalPrefix, global);
        return own == null ? layers : layers.over(PropertyLayers.entry(map, name) + "." + group, own);
    }

    private WatcherProperties watcher(String name) {
        return properties.watchers().getOrDefault(name, WatcherProperties.NONE);
    }

    /** Fails start-up on invalid values, global ones first, before any watcher or reconciler asks for them. */
    private void validate() {
        watchOptions(null);
        watcherBackOff(null);
        reconciler(null, ReconcilerSettings.DEFAULT_CONCURRENCY, null);
        properties.watchers().keySet().forEach(name -> {
            watchOptions(name);
            watcherBackOff(name);
        });
        properties.reconcilers().keySet().forEach(name -> reconciler(name, ReconcilerSettings.DEFAULT_CONCURRENCY,
                null));
    }

    private static <V> V pick(V override, V fallback) {
        return override != null ? override : fallback;
    }
}
