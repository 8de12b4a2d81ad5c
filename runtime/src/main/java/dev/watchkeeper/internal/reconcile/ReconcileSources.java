package dev.watchkeeper.internal.reconcile;

import dev.watchkeeper.internal.watch.WatcherGroup;
import dev.watchkeeper.reconcile.SecondaryMapper;
import io.kubernetes.client.common.KubernetesObject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;

/**
 * The watchers a reconciler reads: its primary and its secondaries, each with the mapper from its objects to primary
 * keys. They are shared, not owned: {@link #subscribe} only listens to them and never starts or closes one.
 */
final class ReconcileSources<T extends KubernetesObject> {

    /**
     * A secondary watcher (or one per namespace) and how its objects map to primary keys; {@code whenServed}: the
     * reconciler does not wait for its store, whose type the server may not serve yet.
     */
    record Secondary<S extends KubernetesObject>(WatcherGroup<S> watcher, SecondaryMapper<S> mapper,
            boolean whenServed) {

        void listen(EventKeys<?> eventKeys, BooleanSupplier inert) {
            eventKeys.listenTo(watcher, mapper, inert);
        }
    }

    private final WatcherGroup<T> primary;
    private final List<Secondary<?>> secondaries;

    ReconcileSources(WatcherGroup<T> primary, List<Secondary<?>> secondaries) {
        this.primary = primary;
        this.secondaries = List.copyOf(secondaries);
    }

    /**
     * Turns the events of every watcher into keys through {@code eventKeys}, ignoring them while {@code inert} is
     * true (a listener cannot be removed).
     *
     * @return completes once every store is ready but those of types that may not be served yet
     */
    CompletableFuture<Void> subscribe(EventKeys<T> eventKeys, BooleanSupplier inert) {
        eventKeys.listenTo(primary, inert);
        secondaries.forEach(s -> s.listen(eventKeys, inert));
        List<CompletableFuture<Void>> readiness = new ArrayList<>();
        readiness.add(primary.store().ready());
        secondaries.stream().filter(s -> !s.whenServed()).forEach(s -> readiness.add(s.watcher().store().ready()));
        return CompletableFuture.allOf(readiness.toArray(CompletableFuture[]::new));
    }

    /** The first lists of the secondaries whose types may not be served yet, each done once its type is served. */
    List<CompletableFuture<Void>> servedLater() {
        return secondaries.stream().filter(Secondary::whenServed).map(s -> s.watcher().store().ready()).toList();
    }

    WatcherGroup<T> primary() {
        return primary;
    }

    List<WatcherGroup<?>> secondaries() {
        return secondaries.stream().<WatcherGroup<?>>map(Secondary::watcher).toList();
    }

    List<String> secondaryNames() {
        return secondaries.stream().map(s -> s.watcher().name()).toList();
    }
}
