package dev.watchkeeper.internal.reconcile;

import dev.watchkeeper.reconcile.Dependent;
import dev.watchkeeper.reconcile.Dependents;
import dev.watchkeeper.reconcile.DependentsResult;
import dev.watchkeeper.reconcile.DependentsResult.DependentState;
import dev.watchkeeper.reconcile.DependentsResult.Phase;
import dev.watchkeeper.reconcile.ReconcilerSnapshot;
import dev.watchkeeper.store.ObjectKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * What one reconciler's dependents did: each dependent's declaration as first run, its totals (applies, unchanged
 * skips, deletes, failures, polls), and the keys it holds up now with why, for the snapshot and the metrics.
 */
final class DependentStats {

    private static final int HELD_KEYS_SHOWN = 20;

    /** By dependent name, in the order first run. */
    private final Map<String, Entry> entries = new ConcurrentHashMap<>();
    private final List<String> order = new CopyOnWriteArrayList<>();
    private final List<Consumer<DependentState>> listeners = new CopyOnWriteArrayList<>();

    private static final class Entry {
        final String kind;
        final List<String> dependsOn;
        final Duration pollInterval;
        final AtomicLong applied = new AtomicLong();
        final AtomicLong unchanged = new AtomicLong();
        final AtomicLong deleted = new AtomicLong();
        final AtomicLong failures = new AtomicLong();
        final AtomicLong polls = new AtomicLong();
        final AtomicLong pollFailures = new AtomicLong();
        /** Keys this dependent holds up now (not ready, blocked or failed), with the phase and reason. */
        final Map<ObjectKey, DependentState> holding = new ConcurrentHashMap<>();

        Entry(Dependent<?, ?> dependent) {
            this.kind = (dependent.externalResource() != null ? "external " : "") + dependent.type().getSimpleName();
            this.dependsOn = dependent.dependsOn();
            this.pollInterval = dependent.pollInterval();
        }
    }

    /** Calls {@code listener} with each dependent's state after every run (the metrics' counters). */
    void onRun(Consumer<DependentState> listener) {
        listeners.add(listener);
    }

    void declared(Dependents<?> dependents) {
        for (Dependent<?, ?> dependent : dependents.ordered()) {
            if (entries.putIfAbsent(dependent.name(), new Entry(dependent)) == null) {
                order.add(dependent.name());
            }
        }
    }

    /** Records a run of {@code key}'s dependents: the totals, and which dependent holds the key up now. */
    void ran(ObjectKey key, DependentsResult result) {
        DependentState holding = result.holdingUp().orElse(null);
        for (DependentState state : result.dependents()) {
            Entry entry = entries.get(state.name());
            entry.applied.addAndGet(state.applied());
            entry.unchanged.addAndGet(state.unchanged());
            entry.deleted.addAndGet(state.deleted());
            if (state.phase() == Phase.FAILED) {
                entry.failures.incrementAndGet();
            }
            if (holding != null && holding.name().equals(state.name())) {
                entry.holding.put(key, state);
            } else {
                entry.holding.remove(key);
            }
            listeners.forEach(listener -> listener.accept(state));
        }
    }

    /** Counts one poll of {@code dependent}'s resource, failed or not. */
    void polled(String dependent, boolean failed) {
        Entry entry = entries.get(dependent);
        entry.polls.incrementAndGet();
        if (failed) {
            entry.pollFailures.incrementAndGet();
        }
    }

    /** The key is gone (its primary deleted, or cleaned up): no dependent holds it up. */
    void forget(ObjectKey key) {
        entries.values().forEach(entry -> entry.holding.remove(key));
    }

    /** Each dependent in the order first run; keys whose primary is no longer {@code present} are left out. */
    List<ReconcilerSnapshot.DependentSnapshot> snapshot(Predicate<ObjectKey> present) {
        List<ReconcilerSnapshot.DependentSnapshot> snapshots = new ArrayList<>();
        for (String name : order) {
            Entry entry = entries.get(name);
            List<ReconcilerSnapshot.HeldKey> held = entry.holding.entrySet().stream()
                    .filter(key -> present.test(key.getKey()))
                    .map(key -> new ReconcilerSnapshot.HeldKey(key.getKey().toString(),
                            key.getValue().phase().name().toLowerCase(Locale.ROOT), key.getValue().reason()))
                    .sorted(Comparator.comparing(ReconcilerSnapshot.HeldKey::key))
                    .toList();
            snapshots.add(new ReconcilerSnapshot.DependentSnapshot(name, entry.kind, entry.dependsOn,
                    entry.pollInterval, entry.applied.get(), entry.unchanged.get(), entry.deleted.get(),
                    entry.failures.get(), entry.polls.get(), entry.pollFailures.get(), held.size(),
                    held.subList(0, Math.min(HELD_KEYS_SHOWN, held.size()))));
        }
        return List.copyOf(snapshots);
    }
}
