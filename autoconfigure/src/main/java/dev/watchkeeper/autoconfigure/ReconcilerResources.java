package dev.watchkeeper.autoconfigure;

import dev.watchkeeper.registry.WatchkeeperState;
import dev.watchkeeper.watch.WatcherSnapshot;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A reconciler's name to the resource of its primary watcher (of the first member, for a namespace set), for the
 * reconcile observation's {@code resource} tag: looked up in the state once per reconciler, on its first reconcile
 * (the registry, which the observer is built for, exists by then), or {@code unknown}; the state may be
 * {@code null} (an observer used without a registry).
 */
final class ReconcilerResources implements Function<String, String> {

    private final Supplier<WatchkeeperState> state;
    private final Map<String, String> resources = new ConcurrentHashMap<>();

    ReconcilerResources(Supplier<WatchkeeperState> state) {
        this.state = state;
    }

    @Override
    public String apply(String reconciler) {
        return resources.computeIfAbsent(reconciler, this::lookUp);
    }

    private String lookUp(String reconciler) {
        WatchkeeperState current = state.get();
        if (current == null) {
            return "unknown"; // an observer used without a registry
        }
        return current.reconcilerSnapshot(reconciler).map(snapshot -> snapshot.primaryWatcher())
                .flatMap(primary -> current.watcherSnapshots().stream()
                        .filter(watcher -> watcher.name().equals(primary) || watcher.name().startsWith(primary + "@"))
                        .map(WatcherSnapshot::resource).findFirst())
                .orElse("unknown");
    }
}
