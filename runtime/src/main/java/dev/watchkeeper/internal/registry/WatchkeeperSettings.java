package dev.watchkeeper.internal.registry;

import dev.watchkeeper.internal.backoff.BackOffSettings;
import dev.watchkeeper.internal.reconcile.ReconcilerSettings;
import dev.watchkeeper.internal.watch.WatchOptions;
import java.time.Duration;
import org.springframework.retry.backoff.BackOffPolicy;

/**
 * Per-name settings of watchers and reconcilers, which the Boot layer reads from {@code watchkeeper.*}
 * properties. Every method has a default, so an implementation overrides only what it configures.
 *
 * <pre>{@code
 * WatchkeeperSettings settings = new WatchkeeperSettings() {
 *     public ReconcilerSettings reconciler(String reconcilerName, int annotationConcurrency,
 *             Duration annotationDebounce) {
 *         return ReconcilerSettings.defaults().withConcurrency(Math.max(4, annotationConcurrency));
 *     }
 * };
 * }</pre>
 */
public interface WatchkeeperSettings {

    /** How the watcher {@code watcherName} lists and watches. */
    default WatchOptions watchOptions(String watcherName) {
        return WatchOptions.defaults();
    }

    /** The backoff numbers of the watcher {@code watcherName}; default client-go's reflector backoff. */
    default BackOffSettings watcherBackOff(String watcherName) {
        return BackOffSettings.clientGo();
    }

    /**
     * A backoff policy replacing {@link #watcherBackOff}'s numbers (a user's {@code BackOffPolicy} bean, say), or
     * {@code null} to use the numbers. The max elapsed time of the numbers still applies.
     */
    default BackOffPolicy watcherBackOffPolicy(String watcherName) {
        return null;
    }

    /**
     * The settings of the reconciler {@code reconcilerName}; {@code annotationConcurrency} and
     * {@code annotationDebounce} ({@code null} when not declared) are what its annotation declares, which properties
     * may override.
     */
    default ReconcilerSettings reconciler(String reconcilerName, int annotationConcurrency,
            Duration annotationDebounce) {
        return ReconcilerSettings.defaults().withConcurrency(annotationConcurrency)
                .withDebounce(annotationDebounce == null ? Duration.ZERO : annotationDebounce);
    }

    /**
     * {@link #reconciler(String, int, Duration)} with the timeout its annotation declares ({@code null} when none),
     * which properties may override; by default the declared timeout replaces the settings'.
     */
    default ReconcilerSettings reconciler(String reconcilerName, int annotationConcurrency,
            Duration annotationDebounce, Duration annotationTimeout) {
        ReconcilerSettings settings = reconciler(reconcilerName, annotationConcurrency, annotationDebounce);
        return annotationTimeout == null ? settings : settings.withTimeout(annotationTimeout);
    }

    /**
     * Whether the reconciler {@code reconcilerName} reconciles only this replica's share of its objects, when the
     * registry runs a shard coordinator; default every reconciler does.
     */
    default boolean sharded(String reconcilerName) {
        return true;
    }

    /**
     * Whether the reconciler {@code reconcilerName} writes each reconcile's outcome in its objects' status conditions
     * (kstatus' {@code Ready}, {@code Reconciling}, {@code Stalled}; docs/semantics.md, "Status conditions"); default
     * every reconciler does.
     */
    default boolean statusConditions(String reconcilerName) {
        return true;
    }

    /** Every default. */
    static WatchkeeperSettings defaults() {
        return Defaults.INSTANCE;
    }

    /** The all-defaults settings. */
    enum Defaults implements WatchkeeperSettings {
        INSTANCE
    }
}
