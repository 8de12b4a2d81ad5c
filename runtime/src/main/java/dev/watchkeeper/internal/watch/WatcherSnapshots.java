package dev.watchkeeper.internal.watch;

import dev.watchkeeper.internal.backoff.BackOffSettings;
import dev.watchkeeper.internal.store.CacheStore;
import dev.watchkeeper.internal.resource.ResolvedResource;
import dev.watchkeeper.internal.resource.ResourceType;
import dev.watchkeeper.watch.WatcherPhase;
import dev.watchkeeper.watch.WatcherSnapshot;
import io.kubernetes.client.common.KubernetesObject;
import java.time.Duration;
import java.time.Instant;

/**
 * A watcher's latest {@link WatcherSnapshot}, built from its parts (machine, store, tally, streak, share) at each
 * transition and read from any thread. Starts in {@link WatcherPhase#STARTING}.
 */
final class WatcherSnapshots<T extends KubernetesObject> {

    private final String name;
    private final ResourceType<T> type;
    private final WatchScope scope;
    private final WatchMachine<T> machine;
    private final CacheStore<T> store;
    private final EventTally tally;
    private final FailureStreak streak;
    private final WatcherSnapshot.BackOff backOff;
    private final ShardAssignment<T> shards;

    private volatile WatcherSnapshot latest;

    /**
     * @param backOffSettings the settings the snapshot shows, or {@code null} when a policy of the user's decides
     * @param shards          the watcher's share, or {@code null} when not sharded
     */
    WatcherSnapshots(String name, ResourceType<T> type, WatchScope scope, WatchMachine<T> machine,
            CacheStore<T> store, EventTally tally, FailureStreak streak, BackOffSettings backOffSettings,
            ShardAssignment<T> shards) {
        this.name = name;
        this.type = type;
        this.scope = scope;
        this.machine = machine;
        this.store = store;
        this.tally = tally;
        this.streak = streak;
        this.backOff = backOffSettings == null ? null : new WatcherSnapshot.BackOff(backOffSettings.initialInterval(),
                backOffSettings.multiplier(), backOffSettings.maxInterval(), backOffSettings.jitter(),
                backOffSettings.resetAfter(), backOffSettings.maxElapsedTime());
        this.shards = shards;
        publish(WatcherPhase.STARTING);
    }

    WatcherSnapshot latest() {
        return latest;
    }

    void publish(WatcherPhase phase) {
        latest = snapshotOf(phase, null, null);
    }

    /** Publishes the phase a step left the watcher in. */
    void publish(WatchState<T> state) {
        publish(phaseOf(state));
    }

    /** Publishes a backoff wait as it begins. */
    void backingOff(Duration delay, Instant nextAttemptAt) {
        latest = snapshotOf(WatcherPhase.BACKING_OFF, delay, nextAttemptAt);
    }

    private WatcherSnapshot snapshotOf(WatcherPhase phase, Duration delay, Instant nextAttemptAt) {
        ResolvedResource resolved = machine.resolvedResource();
        String resource = resolved != null ? resolved.toString() : type.apiVersion() + "/" + type.likelyPlural();
        WatcherSnapshot.Counts counts = new WatcherSnapshot.Counts(tally.events(), tally.relists(),
                tally.errors() + store.undecodableReads());
        return new WatcherSnapshot(name, resource, scope.namespace(), scope.labelSelector(), scope.fieldSelector(),
                phase, tally.synced() && phase != WatcherPhase.STOPPED, store.size(), machine.syncedVersion(),
                streak.consecutiveFailures(), delay, nextAttemptAt, tally.lastError(), counts, streak.description(),
                backOff, shards == null ? null : shards.snapshot());
    }

    private static WatcherPhase phaseOf(WatchState<?> state) {
        if (state instanceof WatchState.InitListed<?> || state instanceof WatchState.Idle<?>) {
            return WatcherPhase.WATCHING;
        }
        if (state instanceof WatchState.Watching<?> watching) {
            return watching.initial() ? WatcherPhase.LISTING : WatcherPhase.WATCHING;
        }
        return WatcherPhase.LISTING;
    }
}
