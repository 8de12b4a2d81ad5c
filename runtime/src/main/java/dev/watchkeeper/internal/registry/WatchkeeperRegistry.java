package dev.watchkeeper.internal.registry;

import dev.watchkeeper.registry.ReconcilerDeclaration;
import dev.watchkeeper.registry.SecondaryDeclaration;
import dev.watchkeeper.registry.WatcherDeclaration;
import dev.watchkeeper.registry.WatchkeeperState;
import dev.watchkeeper.backoff.BackOffSettings;
import dev.watchkeeper.internal.leader.LeaderElector;
import dev.watchkeeper.leader.LeadershipListener;
import dev.watchkeeper.internal.reconcile.ReconcileLoop;
import dev.watchkeeper.internal.reconcile.ReconcileLoopBuilder;
import dev.watchkeeper.reconcile.ReconcilerSnapshot;
import dev.watchkeeper.reconcile.ReconcilerSettings;
import dev.watchkeeper.internal.reconcile.OwnerReferenceMapper;
import dev.watchkeeper.reconcile.SecondaryMapper;
import dev.watchkeeper.reconcile.Trigger;
import dev.watchkeeper.resource.ResourceType;
import dev.watchkeeper.internal.text.Plural;
import dev.watchkeeper.watch.WatchOptions;
import dev.watchkeeper.watch.WatchScope;
import dev.watchkeeper.internal.watch.Watcher;
import dev.watchkeeper.internal.watch.WatcherGroup;
import dev.watchkeeper.watch.WatcherSnapshot;
import io.kubernetes.client.common.KubernetesObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.retry.backoff.BackOffPolicy;

/**
 * Knows every watcher and reconciler and runs them with the application context (modelled on spring-kafka's
 * {@code KafkaListenerEndpointRegistry}). Watchers are shared by identity (docs/semantics.md §11): declarations of the
 * same resource, scope, selectors, watch options and backoff get the same {@link Watcher} and so one store.
 *
 * <pre>{@code
 * WatchkeeperRegistry registry = new WatchkeeperRegistry(RegistryServices.of(apiClient));
 * registry.registerReconciler(declaration);
 * registry.start();                       // watchers, then reconcilers
 * registry.reconciler("mirror").map(ReconcileLoop::snapshot);
 * registry.stop();                        // reconcilers (with their grace), then watchers
 * }</pre>
 *
 * <p>With a {@link LeaderElector} (docs/semantics.md §14), watchers run on every replica but reconcilers work only
 * while this replica leads: they start suspended, resume on acquire and are suspended on loss (running reconciles
 * interrupted and waited for up to lease duration − renew deadline). On stop the reconcilers close while the Lease
 * is still renewed, then the elector closes (releasing the Lease), then the watchers.
 *
 * <p>Names: a watcher is named as declared or by {@link WatchScope#derivedWatcherName}; a reconciler as declared. Watcher
 * and reconciler names share one namespace; a clash fails with a message naming both. A declaration with its own
 * name that shares an existing watcher adds its name as another name of that watcher.
 */
public class WatchkeeperRegistry implements SmartLifecycle, WatchkeeperState {

    /** Late: after the beans the reconcilers use have started, and stopped before them. */
    public static final int PHASE = Integer.MAX_VALUE - 100;

    private static final Logger log = LoggerFactory.getLogger(WatchkeeperRegistry.class);

    /** What makes two watchers the same (docs/semantics.md §11). */
    private record Identity(ResourceType<?> type, WatchScope scope, WatchOptions options, BackOffSettings backOff,
            BackOffPolicy backOffPolicy) {
    }

    /** Who holds a name, for clash messages. */
    private record NameOwner(Identity watcher, String description) {
    }

    private final RegistryServices services;
    private final WatcherFactory watcherFactory;
    private final Map<Identity, Watcher<?>> watchersByIdentity = new LinkedHashMap<>();
    private final Map<String, Watcher<?>> watchersByName = new LinkedHashMap<>();
    private final Map<String, ReconcileLoop<?>> reconcilers = new LinkedHashMap<>();
    private final Map<String, List<Watcher<?>>> groups = new LinkedHashMap<>();
    private final Map<String, NameOwner> names = new HashMap<>();
    private final List<Watcher<?>> started = new ArrayList<>();
    private final LeaderElector elector;
    /** The reconcilers again, for the elector's thread, which must not wait for the registry's lock. */
    private final List<ReconcileLoop<?>> leaderOnly = new CopyOnWriteArrayList<>();
    private volatile boolean running;
    private boolean stopped;

    public WatchkeeperRegistry(RegistryServices services) {
        this(services, WatcherFactory.http(services.apiClient()));
    }

    /** A registry whose watchers come from {@code watcherFactory} (another transport, or a test double). */
    public WatchkeeperRegistry(RegistryServices services, WatcherFactory watcherFactory) {
        this(services, watcherFactory, null);
    }

    /** A registry whose reconcilers work only while {@code elector} holds its Lease; {@code null} = always. */
    public WatchkeeperRegistry(RegistryServices services, LeaderElector elector) {
        this(services, WatcherFactory.http(services.apiClient()), elector);
    }

    /** A registry with its own watcher factory and, unless {@code null}, leader election. */
    public WatchkeeperRegistry(RegistryServices services, WatcherFactory watcherFactory, LeaderElector elector) {
        this.services = Objects.requireNonNull(services, "services");
        this.watcherFactory = Objects.requireNonNull(watcherFactory, "watcherFactory");
        this.elector = elector;
        if (elector != null) {
            elector.addListener(new LeadershipListener() {
                @Override
                public void onStartedLeading() {
                    leaderOnly.forEach(ReconcileLoop::resume);
                }

                @Override
                public void onStoppedLeading() {
                    // Suspend them all first, so their waits run at the same time and end before another
                    // replica can hold the Lease.
                    leaderOnly.forEach(ReconcileLoop::suspend);
                    long deadline = System.nanoTime() + elector.settings().lossGrace().toNanos();
                    leaderOnly.forEach(loop ->
                            loop.awaitSuspended(Duration.ofNanos(Math.max(0, deadline - System.nanoTime()))));
                }
            });
        }
    }

    /** Every watcher, in the order they were created. */
    public synchronized Collection<Watcher<?>> watchers() {
        return List.copyOf(watchersByIdentity.values());
    }

    /** Every reconciler, in the order they were registered. */
    public synchronized Collection<ReconcileLoop<?>> reconcilers() {
        return List.copyOf(reconcilers.values());
    }

    /** The watcher with this name (declared or derived). */
    public synchronized Optional<Watcher<?>> watcher(String name) {
        return Optional.ofNullable(watchersByName.get(name));
    }

    /**
     * The watchers a name stands for: the watcher of that name, or the members of the group of that name (see
     * {@link #watcherGroup}); empty when the name is unknown.
     */
    public synchronized List<Watcher<?>> watchersNamed(String name) {
        Watcher<?> watcher = watchersByName.get(name);
        if (watcher != null) {
            return List.of(watcher);
        }
        return groups.getOrDefault(name, List.of());
    }

    /**
     * One watcher per member declaration (a set of namespaces, say; each with its own backoff and state), known
     * together under {@code name}, which takes its place in the one namespace of names. Asking again for the same
     * group returns the same watchers.
     *
     * @throws IllegalStateException when a name clashes
     */
    @SuppressWarnings("unchecked")
    public synchronized <T extends KubernetesObject> List<Watcher<T>> watcherGroup(String name,
            List<WatcherDeclaration<T>> members) {
        if (members.isEmpty()) {
            throw new IllegalArgumentException("watcher group " + name + " has no members");
        }
        List<Watcher<?>> existing = groups.get(name);
        List<Watcher<T>> watchers = new ArrayList<>();
        if (existing == null) {
            claim(name, new NameOwner(null, "watcher group " + name + " of " + members.get(0).describe()));
        }
        members.forEach(member -> watchers.add(watcher(member)));
        if (existing != null && !existing.equals(watchers)) {
            throw new IllegalStateException("the watcher group '" + name + "' is declared twice, differently");
        }
        groups.put(name, List.copyOf(watchers));
        return watchers;
    }

    public synchronized Optional<ReconcileLoop<?>> reconciler(String name) {
        return Optional.ofNullable(reconcilers.get(name));
    }

    @Override
    public List<WatcherSnapshot> watcherSnapshots() {
        return watchers().stream().map(Watcher::snapshot).toList();
    }

    @Override
    public Optional<WatcherSnapshot> watcherSnapshot(String name) {
        return watcher(name).map(Watcher::snapshot);
    }

    @Override
    public List<ReconcilerSnapshot> reconcilerSnapshots() {
        return reconcilers().stream().map(ReconcileLoop::snapshot).toList();
    }

    @Override
    public Optional<ReconcilerSnapshot> reconcilerSnapshot(String name) {
        return reconciler(name).map(ReconcileLoop::snapshot);
    }

    public RegistryServices services() {
        return services;
    }

    /**
     * The watcher for {@code declaration}: the existing one of equal identity, or a new one (started at once when
     * the registry is running).
     *
     * @throws IllegalStateException when its name is taken by a different watcher or by a reconciler
     */
    @SuppressWarnings("unchecked")
    public synchronized <T extends KubernetesObject> Watcher<T> watcher(WatcherDeclaration<T> declaration) {
        String name = declaration.effectiveName();
        Identity identity = new Identity(declaration.type(), declaration.scope(),
                declaration.options() != null ? declaration.options() : services.settings().watchOptions(name),
                declaration.backOff() != null ? declaration.backOff() : services.settings().watcherBackOff(name),
                services.settings().watcherBackOffPolicy(name));
        String description = "watcher of " + declaration.describe();
        claim(name, new NameOwner(identity, description));
        Watcher<T> watcher = (Watcher<T>) watchersByIdentity.get(identity);
        if (watcher == null) {
            watcher = create(name, declaration, identity);
            watchersByIdentity.put(identity, watcher);
            if (running) {
                startWatcher(watcher);
            }
        }
        watchersByName.putIfAbsent(name, watcher);
        return watcher;
    }

    /**
     * Builds the reconciler a declaration describes, getting or creating its watchers; starts it at once when the
     * registry is running.
     *
     * @throws IllegalStateException when a name clashes
     */
    public synchronized <T extends KubernetesObject> ReconcileLoop<T> registerReconciler(
            ReconcilerDeclaration<T> declaration) {
        String name = declaration.name();
        claim(name, new NameOwner(null, "reconciler " + name + " (" + declaration.source() + ")"));
        WatcherGroup<T> primary = group(declaration.primary(), declaration.namespaces());
        ReconcilerSettings settings = services.settings().reconciler(name, declaration.concurrency(),
                declaration.debounce());
        if (settings.triggers().contains(Trigger.ALL) && !declaration.triggers().contains(Trigger.ALL)) {
            settings = settings.withTriggers(declaration.triggers()); // settings that set triggers win
        }
        ReconcileLoopBuilder<T> builder = ReconcileLoop.builder(name, primary, declaration.reconciler())
                .settings(settings)
                .filter(declaration.filter())
                .finalizer(declaration.finalizer())
                .timeSource(services.time())
                .threadFactory(services.workerThreads())
                .observer(services.observer())
                .apiClient(services.apiClient());
        for (SecondaryDeclaration<?> secondary : declaration.secondaries()) {
            addSecondary(builder, primary, secondary, declaration.namespaces());
        }
        ReconcileLoop<T> reconciler = builder.build();
        reconcilers.put(name, reconciler);
        if (running) {
            startReconciler(reconciler);
        }
        return reconciler;
    }

    private <T extends KubernetesObject, S extends KubernetesObject> void addSecondary(ReconcileLoopBuilder<T> builder,
            WatcherGroup<T> primary, SecondaryDeclaration<S> declaration, List<String> namespaces) {
        SecondaryMapper<S> mapper = declaration.mapper() != null ? declaration.mapper()
                : new OwnerReferenceMapper<>(primary.type(), primary.store());
        builder.watches(group(declaration.watcher(), namespaces), mapper);
    }

    /** The watcher of {@code declaration}, or with several namespaces the group of one watcher per namespace. */
    private <T extends KubernetesObject> WatcherGroup<T> group(WatcherDeclaration<T> declaration,
            List<String> namespaces) {
        List<WatcherDeclaration<T>> members = declaration.inEach(namespaces);
        if (members.size() == 1) {
            return WatcherGroup.of(watcher(members.get(0)));
        }
        String name = declaration.groupName(namespaces);
        return new WatcherGroup<>(name, watcherGroup(name, members));
    }

    /** Starts every watcher, then every reconciler (whose workers wait for their stores). */
    @Override
    public synchronized void start() {
        if (running) {
            return;
        }
        if (stopped) {
            log.warn("the watchkeeper registry was stopped and cannot start again");
            return;
        }
        watchersByIdentity.values().forEach(this::startWatcher);
        reconcilers.values().forEach(this::startReconciler);
        running = true;
        log.info("watchkeeper started {} and {}", Plural.count(watchersByIdentity.size(), "watcher"),
                Plural.count(reconcilers.size(), "reconciler"));
        if (elector != null) {
            log.info("reconcilers work while this replica holds the Lease {} as {}", elector.settings().lease(),
                    elector.settings().identity());
            elector.start();
        }
    }

    private void startReconciler(ReconcileLoop<?> reconciler) {
        if (elector == null) {
            reconciler.start();
            return;
        }
        leaderOnly.add(reconciler);
        reconciler.startSuspended();
        if (elector.isLeader()) {
            reconciler.resume();
        }
    }

    /** Closes every reconciler (waiting for running reconciles up to each one's grace), then every watcher. */
    @Override
    public synchronized void stop() {
        if (!running) {
            return;
        }
        running = false;
        stopped = true;
        // Stop them all first, so their graces run at the same time rather than one after another.
        reconcilers.values().forEach(ReconcileLoop::stop);
        reconcilers.values().forEach(reconciler -> reconciler.close(reconciler.settings().shutdownGrace()));
        if (elector != null) {
            elector.close(); // after the reconcilers: the Lease is renewed while they finish, then released
        }
        started.forEach(Watcher::close);
        log.info("watchkeeper stopped");
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }

    private void startWatcher(Watcher<?> watcher) {
        if (!started.contains(watcher)) {
            watcher.start();
            started.add(watcher);
        }
    }

    private <T extends KubernetesObject> Watcher<T> create(String name, WatcherDeclaration<T> declaration,
            Identity identity) {
        return watcherFactory.builder(declaration.type())
                .name(name)
                .scope(declaration.scope())
                .options(identity.options())
                .backOff(identity.backOff())
                .backOffPolicy(identity.backOffPolicy())
                .timeSource(services.time())
                .threadFactory(services.watcherThreads())
                .build();
    }

    /** Takes {@code name} for {@code owner}, or fails naming both when someone else has it. */
    private void claim(String name, NameOwner owner) {
        NameOwner holder = names.get(name);
        if (holder == null) {
            names.put(name, owner);
            return;
        }
        if (owner.watcher() != null && owner.watcher().equals(holder.watcher())) {
            return; // the same watcher declared again: shared
        }
        throw new IllegalStateException("the name '" + name + "' is claimed twice: by the " + holder.description()
                + " and by the " + owner.description() + "; watchers and reconcilers share one namespace of names,"
                + " so give one of them another name");
    }

    @Override
    public synchronized String toString() {
        return "WatchkeeperRegistry" + Set.copyOf(names.keySet());
    }
}
