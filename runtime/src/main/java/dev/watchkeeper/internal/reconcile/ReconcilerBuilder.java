package dev.watchkeeper.internal.reconcile;

import dev.watchkeeper.internal.backoff.TimeSource;
import dev.watchkeeper.internal.events.EventRecorder;
import dev.watchkeeper.internal.concurrent.DaemonThreads;
import dev.watchkeeper.internal.watch.Watcher;
import dev.watchkeeper.internal.watch.WatcherGroup;
import dev.watchkeeper.reconcile.SecondaryMapper;
import dev.watchkeeper.reconcile.TriggerFilter;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;

/**
 * Builds a {@link Reconciler}, from {@link Reconciler#builder}; everything but name, primary watcher and
 * reconciler has a default. The fields are read once, by the loop's constructor.
 */
public final class ReconcilerBuilder<T extends KubernetesObject> {

    final String name;
    final WatcherGroup<T> primary;
    final ReconcileFunction<T> reconcile;
    final List<ReconcileSources.Secondary<?>> secondaries = new ArrayList<>();
    final List<ReconcileListener> listeners = new ArrayList<>();
    ReconcilerSettings settings = ReconcilerSettings.defaults();
    TriggerFilter<T> filter;
    Finalizer<T> finalizer;
    TimeSource time = TimeSource.system();
    ThreadFactory threadFactory = DaemonThreads.factory();
    DoubleSupplier resyncJitter = () -> ThreadLocalRandom.current().nextDouble();
    ReconcileObserver observer = ReconcileObserver.passThrough();
    ApiClient apiClient;
    EventRecorder events;
    boolean sharded;
    boolean statusConditions = true;

    ReconcilerBuilder(String name, WatcherGroup<T> primary, ReconcileFunction<T> reconcile) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a reconciler needs a name");
        }
        this.name = name;
        this.primary = Objects.requireNonNull(primary, "primary");
        this.reconcile = Objects.requireNonNull(reconcile, "reconcile");
    }

    /** A secondary resource whose objects name their primary in a controller ownerReference. */
    public <S extends KubernetesObject> ReconcilerBuilder<T> owns(Watcher<S> secondary) {
        return watches(secondary, new OwnerReferenceMapper<>(primary.type(), primary.store()));
    }

    /**
     * An owned secondary resource whose type the server may not serve yet: the reconciler starts without its first
     * list, enqueues every primary once it lists, and a dependent of its type is inactive until then.
     */
    public <S extends KubernetesObject> ReconcilerBuilder<T> ownsWhenServed(WatcherGroup<S> secondary) {
        secondaries.add(new ReconcileSources.Secondary<>(Objects.requireNonNull(secondary, "secondary"),
                new OwnerReferenceMapper<>(primary.type(), primary.store()), true));
        return this;
    }

    /** A secondary resource whose objects map to primary keys through {@code mapper}. */
    public <S extends KubernetesObject> ReconcilerBuilder<T> watches(Watcher<S> secondary,
            SecondaryMapper<S> mapper) {
        return watches(WatcherGroup.of(Objects.requireNonNull(secondary, "secondary")), mapper);
    }

    /** A secondary resource watched per namespace, whose objects map to primary keys through {@code mapper}. */
    public <S extends KubernetesObject> ReconcilerBuilder<T> watches(WatcherGroup<S> secondary,
            SecondaryMapper<S> mapper) {
        secondaries.add(new ReconcileSources.Secondary<>(Objects.requireNonNull(secondary, "secondary"),
                Objects.requireNonNull(mapper, "mapper"), false));
        return this;
    }

    public ReconcilerBuilder<T> settings(ReconcilerSettings settings) {
        this.settings = Objects.requireNonNull(settings, "settings");
        return this;
    }

    /** A trigger filter of your own; combined with the settings' triggers by "either". */
    public ReconcilerBuilder<T> filter(TriggerFilter<T> filter) {
        this.filter = filter;
        return this;
    }

    /**
     * A finalizer added to every object before its first reconcile, whose cleanup runs instead of the
     * reconcile once the object is being deleted (docs/semantics.md §10). Needs an {@link #apiClient}.
     */
    public ReconcilerBuilder<T> finalizer(Finalizer<T> finalizer) {
        this.finalizer = finalizer;
        return this;
    }

    public ReconcilerBuilder<T> timeSource(TimeSource time) {
        this.time = Objects.requireNonNull(time, "time");
        return this;
    }

    /** Where worker threads come from (virtual threads, say); default daemon platform threads. */
    public ReconcilerBuilder<T> threadFactory(ThreadFactory threadFactory) {
        this.threadFactory = Objects.requireNonNull(threadFactory, "threadFactory");
        return this;
    }

    public ReconcilerBuilder<T> observer(ReconcileObserver observer) {
        this.observer = Objects.requireNonNull(observer, "observer");
        return this;
    }

    public ReconcilerBuilder<T> listener(ReconcileListener listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
        return this;
    }

    /** The client handed to reconciles in their context. */
    public ReconcilerBuilder<T> apiClient(ApiClient apiClient) {
        this.apiClient = apiClient;
        return this;
    }

    /** Where the context's {@code publishEvent} goes; without one, Events are dropped with a warning. */
    public ReconcilerBuilder<T> events(EventRecorder events) {
        this.events = events;
        return this;
    }

    /**
     * Reconciles only the keys of its active slots (docs/sharding.md): none until the first
     * {@link Reconciler#widen widen}; its {@link Reconciler#participant participant} is driven by the
     * replica's shard coordinator.
     */
    public ReconcilerBuilder<T> sharded() {
        this.sharded = true;
        return this;
    }

    /**
     * Whether each reconcile's outcome is written in the object's status conditions, kstatus' {@code Ready},
     * {@code Reconciling} and {@code Stalled} (docs/semantics.md, "Status conditions"); default yes. Only custom
     * resources whose status can hold conditions get them, and only with an {@link #apiClient}.
     */
    public ReconcilerBuilder<T> statusConditions(boolean enabled) {
        this.statusConditions = enabled;
        return this;
    }

    /** Where each resync finds its place in its ±10 % window: values in [0, 1); for tests that pin it. */
    ReconcilerBuilder<T> resyncJitter(DoubleSupplier random) {
        this.resyncJitter = Objects.requireNonNull(random, "random");
        return this;
    }

    /** @throws IllegalStateException when a finalizer is set without an {@link #apiClient} to add and remove it */
    public Reconciler<T> build() {
        if (finalizer != null && apiClient == null) {
            throw new IllegalStateException("reconciler " + name + " has the finalizer " + finalizer.name()
                    + " but no ApiClient to add and remove it");
        }
        return new Reconciler<>(this);
    }
}
