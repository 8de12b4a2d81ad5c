package dev.watchkeeper.internal.registry;

import dev.watchkeeper.registry.WatchkeeperState;
import dev.watchkeeper.internal.leader.LeaderElector;
import dev.watchkeeper.internal.reconcile.Reconciler;
import dev.watchkeeper.reconcile.ReconcilerSnapshot;
import dev.watchkeeper.internal.text.Plural;
import dev.watchkeeper.internal.watch.WatchScope;
import dev.watchkeeper.internal.shard.ShardCoordinator;
import dev.watchkeeper.internal.watch.Watcher;
import dev.watchkeeper.watch.WatcherSnapshot;
import io.kubernetes.client.common.KubernetesObject;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.context.SmartLifecycle;

/**
 * Knows every watcher and reconciler and runs them with the application context (modelled on spring-kafka's
 * {@code KafkaListenerEndpointRegistry}). Watchers are shared by identity (docs/semantics.md §11): declarations of the
 * same resource, scope, selectors, watch options and backoff get the same {@link Watcher} and so one store.
 *
 * <pre>{@code
 * WatchkeeperRegistry registry = new WatchkeeperRegistry(RegistryServices.of(apiClient));
 * registry.registerReconciler(declaration);
 * registry.start();                       // watchers, then reconcilers
 * registry.reconciler("mirror").map(Reconciler::snapshot);
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
public class WatchkeeperRegistry implements SmartLifecycle, DisposableBean, WatchkeeperState {

    /** Late: after the beans the reconcilers use have started, and stopped before them. */
    public static final int PHASE = Integer.MAX_VALUE - 100;

    private static final Logger log = LoggerFactory.getLogger(WatchkeeperRegistry.class);

    private final RegistryServices services;
    private final Map<String, Reconciler<?>> reconcilers = new LinkedHashMap<>();
    private final WatcherTable table;
    private final List<Watcher<?>> started = new ArrayList<>();
    private final LeaderElector elector;
    /** {@code null} without leader election. */
    private final LeaderOnlyReconcilers leaderOnly;
    /** With sharding, every reconciler reconciles this replica's share only (docs/sharding.md); else {@code null}. */
    private final ShardCoordinator coordinator;
    private volatile boolean running;
    private boolean stopped;
    /** Watchers start when created, before {@link #start}: see {@link #startWatchers}. */
    private boolean watchersStarted;
    private final FirstSyncs firstSyncs = new FirstSyncs();
    private final ServedLater servedLater = new ServedLater();
    private final ReconcilerAssembly assembly;

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
        this(services, watcherFactory, elector, null);
    }

    /**
     * A registry with its own watcher factory and, unless {@code null}, either leader election or sharding: with a
     * {@code coordinator} every reconciler the settings call {@link WatchkeeperSettings#sharded sharded} (by default
     * all) is added to it as a participant, and the registry starts and closes it.
     */
    public WatchkeeperRegistry(RegistryServices services, WatcherFactory watcherFactory, LeaderElector elector,
            ShardCoordinator coordinator) {
        if (elector != null && coordinator != null) {
            throw new IllegalArgumentException("a registry's reconcilers follow leader election or sharding, not both");
        }
        this.services = Objects.requireNonNull(services, "services");
        this.table = new WatcherTable(services, Objects.requireNonNull(watcherFactory, "watcherFactory"),
                this::watcherCreated);
        this.assembly = new ReconcilerAssembly(services, table, servedLater);
        this.elector = elector;
        this.coordinator = coordinator;
        this.leaderOnly = elector == null ? null : new LeaderOnlyReconcilers(elector);
    }

    /** Every watcher, in the order they were created. */
    public synchronized Collection<Watcher<?>> watchers() {
        return table.watchers();
    }

    /**
     * Whether {@code watcher} waits for the server to serve its type: only reconcilers' owned-when-served types read
     * it and it has not listed yet, so neither readiness nor health waits for it.
     */
    public boolean awaitsServing(Watcher<?> watcher) {
        return servedLater.awaits(watcher);
    }

    /** Every reconciler, in the order they were registered. */
    public synchronized Collection<Reconciler<?>> reconcilers() {
        return List.copyOf(reconcilers.values());
    }

    /** The watcher with this name (declared or derived). */
    public synchronized Optional<Watcher<?>> watcher(String name) {
        return table.watcher(name);
    }

    /**
     * The watchers a name stands for: the watcher of that name, or the members of the group of that name (see
     * {@link #watcherGroup}); empty when the name is unknown.
     */
    public synchronized List<Watcher<?>> watchersNamed(String name) {
        return table.watchersNamed(name);
    }

    /**
     * One watcher per member declaration (a set of namespaces, say; each with its own backoff and state), known
     * together under {@code name}, which takes its place in the one namespace of names. Asking again for the same
     * group returns the same watchers.
     *
     * @throws IllegalStateException when a name clashes
     */
    public synchronized <T extends KubernetesObject> List<Watcher<T>> watcherGroup(String name,
            List<WatcherSpec<T>> members) {
        return table.group(name, members, null);
    }


    public synchronized Optional<Reconciler<?>> reconciler(String name) {
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
        return reconcilers().stream().map(Reconciler::snapshot).toList();
    }

    @Override
    public Optional<ReconcilerSnapshot> reconcilerSnapshot(String name) {
        return reconciler(name).map(Reconciler::snapshot);
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
    public synchronized <T extends KubernetesObject> Watcher<T> watcher(WatcherSpec<T> declaration) {
        return table.watcher(declaration, null);
    }

    /** A watcher created while the registry runs, or once {@link #startWatchers} was called, starts at once. */
    private void watcherCreated(Watcher<?> watcher) {
        firstSyncs.watch(watcher);
        if (running || watchersStarted) {
            startWatcher(watcher);
        }
    }

    /**
     * Starts every watcher now, and from now on each one when it is created, ahead of {@link #start}: the caches
     * fill while the application is still starting, and its reconcilers find them ready. Listeners added later catch
     * up from the stores ({@link Watcher#addListener}). {@link #destroy} closes them if the registry never starts.
     */
    public synchronized void startWatchers() {
        if (stopped) {
            return;
        }
        watchersStarted = true;
        table.watchers().forEach(this::startWatcher);
    }

    /**
     * Creates the watchers a reconciler named {@code reconciler} will read, before it is registered, so that with
     * {@link #startWatchers} they list while the rest of the application starts. Nothing for a sharded reconciler:
     * {@link #registerReconciler} makes its watchers, filtered to this replica's share.
     */
    public synchronized void createWatchers(String reconciler, List<WatcherSpec<?>> declarations) {
        if (!sharded(reconciler)) {
            declarations.forEach(declaration -> table.watcher(declaration, null));
        }
    }

    private boolean sharded(String reconciler) {
        return coordinator != null && services.settings().sharded(reconciler);
    }

    /**
     * Builds the reconciler a declaration describes, getting or creating its watchers; starts it at once when the
     * registry is running.
     *
     * @throws IllegalStateException when a name clashes
     */
    public synchronized <T extends KubernetesObject> Reconciler<T> registerReconciler(
            ReconcilerDeclaration<T> declaration) {
        String name = declaration.name();
        table.claim(name, "reconciler " + name + " (" + declaration.source() + ")");
        boolean sharded = sharded(name);
        if (sharded && running) {
            throw new IllegalStateException("reconciler " + name + " comes after the shard coordinator started; a"
                    + " sharded reconciler must be registered before the registry starts");
        }
        var assembled = assembly.assemble(declaration, sharded);
        Reconciler<T> reconciler = assembled.reconciler();
        if (sharded) {
            List<Watcher<?>> watchers = assembled.shardedWatchers();
            coordinator.addParticipant(reconciler.participant(slots -> watchers.forEach(w -> w.reshard(slots))));
        }
        reconcilers.put(name, reconciler);
        if (running) {
            startReconciler(reconciler);
        }
        return reconciler;
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
        table.watchers().forEach(this::startWatcher);
        reconcilers.values().forEach(this::startReconciler);
        running = true;
        log.info("watchkeeper started {} and {}", Plural.count(table.watchers().size(), "watcher"),
                Plural.count(reconcilers.size(), "reconciler"));
        List<Watcher<?>> watchers = servedLater.waitedFor(table.watchers());
        CompletableFuture.allOf(watchers.stream().map(w -> w.store().ready()).toArray(CompletableFuture[]::new))
                .thenRun(() -> firstSyncs.logSynced(watchers));
        if (elector != null) {
            log.info("reconcilers work while this replica holds the Lease {} as {}", elector.settings().lease(),
                    elector.settings().identity());
            elector.start();
        }
        if (coordinator != null) {
            log.info("reconcilers reconcile this replica's share of the objects: {}", coordinator.settings().describe());
            coordinator.start();
        }
    }

    private void startReconciler(Reconciler<?> reconciler) {
        if (leaderOnly == null) {
            reconciler.start();
        } else {
            leaderOnly.start(reconciler);
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
        if (coordinator != null) {
            coordinator.close(); // first: the others take this replica's share while its reconcilers finish
        }
        // Stop them all first, so their graces run at the same time rather than one after another.
        reconcilers.values().forEach(Reconciler::stop);
        reconcilers.values().forEach(reconciler -> reconciler.close(reconciler.settings().shutdownGrace()));
        if (elector != null) {
            elector.close(); // after the reconcilers: the Lease is renewed while they finish, then released
        }
        started.forEach(Watcher::close);
        if (services.events() != null) {
            services.events().close(); // last: it writes what the reconcilers and the elector recorded
        }
        log.info("watchkeeper stopped");
    }

    /**
     * Closes the watchers {@link #startWatchers} started, and the event recorder, when the registry itself never ran
     * (a failed start-up).
     */
    @Override
    public synchronized void destroy() {
        if (!running && !stopped) {
            stopped = true;
            started.forEach(Watcher::close);
            if (services.events() != null) {
                services.events().close();
            }
        }
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

    @Override
    public synchronized String toString() {
        return "WatchkeeperRegistry" + table.names();
    }
}
