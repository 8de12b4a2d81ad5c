package dev.watchkeeper.internal.registry;

import dev.watchkeeper.internal.reconcile.OwnerReferenceMapper;
import dev.watchkeeper.internal.reconcile.Reconciler;
import dev.watchkeeper.internal.reconcile.ReconcilerBuilder;
import dev.watchkeeper.internal.watch.ShardFilter;
import dev.watchkeeper.internal.watch.Watcher;
import dev.watchkeeper.internal.watch.WatcherGroup;
import dev.watchkeeper.internal.reconcile.ReconcilerSettings;
import dev.watchkeeper.reconcile.SecondaryMapper;
import dev.watchkeeper.reconcile.Trigger;
import io.kubernetes.client.common.KubernetesObject;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds the reconciler a declaration describes: its settings (the properties' over the declaration's), its primary
 * and secondary watchers, got from or created in the registry's table (filtered to this replica's share when it is
 * sharded), and which of them the registry may start without ({@link ServedLater}).
 */
final class ReconcilerAssembly {

    /** The reconciler, and the watchers to reshard with its slots (none unless it is sharded). */
    record Assembled<T extends KubernetesObject>(Reconciler<T> reconciler, List<Watcher<?>> shardedWatchers) {
    }

    private final RegistryServices services;
    private final WatcherTable table;
    private final ServedLater servedLater;

    ReconcilerAssembly(RegistryServices services, WatcherTable table, ServedLater servedLater) {
        this.services = services;
        this.table = table;
        this.servedLater = servedLater;
    }

    <T extends KubernetesObject> Assembled<T> assemble(ReconcilerDeclaration<T> declaration, boolean sharded) {
        String name = declaration.name();
        WatcherGroup<T> primary = group(declaration.primary(), declaration.namespaces(),
                sharded ? ShardFilter.BY_OBJECT_UID : null);
        servedLater.needed(primary.members());
        List<Watcher<?>> shardedWatchers = new ArrayList<>(sharded ? primary.members() : List.of());
        ReconcilerSettings settings = services.settings().reconciler(name, declaration.concurrency(),
                declaration.debounce(), declaration.timeout());
        if (settings.triggers().contains(Trigger.ALL) && !declaration.triggers().contains(Trigger.ALL)) {
            settings = settings.withTriggers(declaration.triggers()); // settings that set triggers win
        }
        ReconcilerBuilder<T> builder = Reconciler.builder(name, primary, declaration.reconciler())
                .settings(settings)
                .filter(declaration.filter())
                .finalizer(declaration.finalizer())
                .timeSource(services.time())
                .threadFactory(services.workerThreads())
                .observer(services.observer())
                .apiClient(services.apiClient())
                .events(services.events())
                .statusConditions(services.settings().statusConditions(name));
        for (SecondaryDeclaration<?> secondary : declaration.secondaries()) {
            addSecondary(builder, primary, secondary, declaration.namespaces(), sharded ? shardedWatchers : null);
        }
        if (sharded) {
            builder.sharded();
        }
        return new Assembled<>(builder.build(), List.copyOf(shardedWatchers));
    }

    /**
     * {@code shardedWatchers}: {@code null} unless the reconciler is sharded; then an owned secondary keeps only the
     * objects whose controller owner is in this replica's share, and joins the list. A secondary with a mapper of its
     * own is watched whole: only the mapper knows which primaries its objects belong to.
     */
    private <T extends KubernetesObject, S extends KubernetesObject> void addSecondary(ReconcilerBuilder<T> builder,
            WatcherGroup<T> primary, SecondaryDeclaration<S> declaration, List<String> namespaces,
            List<Watcher<?>> shardedWatchers) {
        boolean owned = declaration.mapper() == null;
        SecondaryMapper<S> mapper = owned ? new OwnerReferenceMapper<>(primary.type(), primary.store())
                : declaration.mapper();
        WatcherGroup<S> group = group(declaration.watcher(), namespaces,
                owned && shardedWatchers != null ? ShardFilter.BY_CONTROLLER_OWNER_UID : null);
        if (owned && shardedWatchers != null) {
            shardedWatchers.addAll(group.members());
        }
        if (declaration.whenServed()) {
            servedLater.whenServed(group.members());
            builder.ownsWhenServed(group);
        } else {
            servedLater.needed(group.members());
            builder.watches(group, mapper);
        }
    }

    /** The watcher of {@code declaration}, or with several namespaces the group of one watcher per namespace. */
    private <T extends KubernetesObject> WatcherGroup<T> group(WatcherSpec<T> declaration,
            List<String> namespaces, ShardFilter shard) {
        List<WatcherSpec<T>> members = declaration.inEach(namespaces);
        if (members.size() == 1) {
            return WatcherGroup.of(table.watcher(members.get(0), shard));
        }
        String name = declaration.groupName(namespaces) + (shard == null ? "" : "-sharded");
        return new WatcherGroup<>(name, table.group(name, members, shard));
    }
}
