package dev.watchkeeper.autoconfigure;

import dev.watchkeeper.autoconfigure.WatchkeeperProperties.BackoffOverrides;
import dev.watchkeeper.autoconfigure.WatchkeeperProperties.ReconcilerProperties;
import dev.watchkeeper.autoconfigure.WatchkeeperProperties.WatchOverrides;
import dev.watchkeeper.autoconfigure.WatchkeeperProperties.WatcherProperties;
import dev.watchkeeper.backoff.BackOffSettings;
import dev.watchkeeper.controller.ControllerSettings;
import dev.watchkeeper.registry.WatchkeeperSettings;
import dev.watchkeeper.watch.WatchOptions;
import java.time.Duration;
import org.springframework.retry.backoff.BackOffPolicy;

/**
 * {@link WatchkeeperSettings} from {@code watchkeeper.*} properties: global values, overridden per watcher
 * ({@code watchkeeper.watchers.<name>.*}) and per reconciler ({@code watchkeeper.reconcilers.<name>.*}); a
 * per-reconciler {@code concurrency} also overrides the annotation's. User {@link BackOffPolicy} beans, when given,
 * replace the property-built policies. Invalid values fail with a message naming the property.
 */
public class PropertiesWatchkeeperSettings implements WatchkeeperSettings {

    private final WatchkeeperProperties properties;
    private final BackOffPolicy watcherPolicy;
    private final BackOffPolicy reconcilePolicy;

    /**
     * @param watcherPolicy   a user policy for every watcher, or {@code null}
     * @param reconcilePolicy a user per-object policy for every reconciler, or {@code null}
     */
    public PropertiesWatchkeeperSettings(WatchkeeperProperties properties, BackOffPolicy watcherPolicy,
            BackOffPolicy reconcilePolicy) {
        this.properties = properties;
        this.watcherPolicy = watcherPolicy;
        this.reconcilePolicy = reconcilePolicy;
        validate();
    }

    @Override
    public WatchOptions watchOptions(String watcherName) {
        WatchkeeperProperties.Watch watch = properties.watch();
        WatchOverrides o = watcher(watcherName).watch();
        String prefix = o == null ? "watchkeeper.watch" : "watchkeeper.watchers." + watcherName + ".watch";
        int pageSize = o != null && o.pageSize() != null ? o.pageSize() : watch.pageSize();
        Duration timeout = o != null && o.timeout() != null ? o.timeout() : watch.timeout();
        Validation.atLeast(prefix + ".page-size", pageSize, 1);
        if (timeout.getSeconds() < 1) {
            throw Validation.invalid(prefix + ".timeout", timeout, "must be at least 1s");
        }
        return WatchOptions.defaults()
                .withPageSize(pageSize)
                .withTimeout(timeout)
                .withInitialList(o != null && o.initialList() != null ? o.initialList() : watch.initialList())
                .withStripManagedFields(o != null && o.stripManagedFields() != null ? o.stripManagedFields()
                        : watch.stripManagedFields())
                .withAutoFallbackAfter(watch.autoFallbackAfter());
    }

    @Override
    public BackOffSettings watcherBackOff(String watcherName) {
        WatchkeeperProperties.Backoff global = properties.backoff();
        BackoffOverrides o = watcher(watcherName).backoff();
        if (o == null) {
            return global.toSettings("watchkeeper.backoff");
        }
        return Validation.backOff("watchkeeper.watchers." + watcherName + ".backoff",
                pick(o.initialInterval(), global.initialInterval()), pick(o.multiplier(), global.multiplier()),
                pick(o.maxInterval(), global.maxInterval()), pick(o.jitter(), global.jitter()),
                pick(o.resetAfter(), global.resetAfter()), pick(o.maxElapsedTime(), global.maxElapsedTime()));
    }

    @Override
    public BackOffPolicy watcherBackOffPolicy(String watcherName) {
        return watcherPolicy;
    }

    @Override
    public ControllerSettings controller(String reconcilerName, int annotationConcurrency) {
        WatchkeeperProperties.Reconcile reconcile = properties.reconcile();
        ReconcilerProperties own = properties.reconcilers().get(reconcilerName);
        String prefix = "watchkeeper.reconcilers." + reconcilerName;
        int concurrency = own != null && own.concurrency() != null ? own.concurrency() : annotationConcurrency;
        Validation.atLeast(prefix + ".concurrency", concurrency, 1);
        Duration resync = own != null && own.resyncPeriod() != null ? own.resyncPeriod() : reconcile.resyncPeriod();
        Validation.notNegative(own != null && own.resyncPeriod() != null ? prefix + ".resync-period"
                : "watchkeeper.reconcile.resync-period", resync);
        Validation.notNegative("watchkeeper.reconcile.shutdown-grace", reconcile.shutdownGrace());
        ControllerSettings settings = ControllerSettings.defaults()
                .withConcurrency(concurrency)
                .withShutdownGrace(reconcile.shutdownGrace())
                .withResyncPeriod(resync);
        return reconcilePolicy != null
                ? settings.withBackOffPolicy(reconcilePolicy)
                : settings.withBackOff(reconcileBackOff(own, prefix));
    }

    private BackOffSettings reconcileBackOff(ReconcilerProperties own, String prefix) {
        WatchkeeperProperties.ReconcileBackoff global = properties.reconcile().backoff();
        BackoffOverrides o = own == null ? null : own.backoff();
        String where = o == null ? "watchkeeper.reconcile.backoff" : prefix + ".backoff";
        return Validation.backOff(where,
                o == null ? global.initialInterval() : pick(o.initialInterval(), global.initialInterval()),
                o == null ? global.multiplier() : pick(o.multiplier(), global.multiplier()),
                o == null ? global.maxInterval() : pick(o.maxInterval(), global.maxInterval()),
                o == null ? global.jitter() : pick(o.jitter(), global.jitter()),
                Duration.ZERO, null);
    }

    private WatcherProperties watcher(String name) {
        WatcherProperties own = properties.watchers().get(name);
        return own != null ? own : WatcherProperties.NONE;
    }

    /** Fails start-up on invalid global values even before any watcher or reconciler asks for them. */
    private void validate() {
        properties.backoff().toSettings("watchkeeper.backoff");
        reconcileBackOff(null, "watchkeeper.reconcile");
        Validation.atLeast("watchkeeper.watch.page-size", properties.watch().pageSize(), 1);
        Validation.positive("watchkeeper.watch.auto-fallback-after", properties.watch().autoFallbackAfter());
        Validation.notNegative("watchkeeper.reconcile.shutdown-grace", properties.reconcile().shutdownGrace());
        Validation.notNegative("watchkeeper.reconcile.resync-period", properties.reconcile().resyncPeriod());
        properties.watchers().keySet().forEach(name -> {
            watchOptions(name);
            watcherBackOff(name);
        });
        properties.reconcilers().keySet().forEach(name -> controller(name, 1));
    }

    private static <V> V pick(V override, V fallback) {
        return override != null ? override : fallback;
    }
}
