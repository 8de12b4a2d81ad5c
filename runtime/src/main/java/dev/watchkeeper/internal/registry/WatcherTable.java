package dev.watchkeeper.internal.registry;

import dev.watchkeeper.internal.backoff.BackOffSettings;
import dev.watchkeeper.internal.watch.ShardFilter;
import dev.watchkeeper.internal.watch.Watcher;
import dev.watchkeeper.internal.watch.WatcherBuilder;
import dev.watchkeeper.internal.resource.ResourceType;
import dev.watchkeeper.internal.watch.WatchOptions;
import dev.watchkeeper.internal.watch.WatchScope;
import io.kubernetes.client.common.KubernetesObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import org.springframework.retry.backoff.BackOffPolicy;

/**
 * A registry's watchers by identity (docs/semantics.md §11) and the one namespace of names that watchers, watcher
 * groups and reconcilers share. Not thread-safe: the {@link WatchkeeperRegistry} calls it under its own lock.
 */
final class WatcherTable {

    /** What makes two watchers the same (docs/semantics.md §11). */
    private record Identity(ResourceType<?> type, WatchScope scope, WatchOptions options, BackOffSettings backOff,
            BackOffPolicy backOffPolicy, ShardFilter shard) {
    }

    /** Who holds a name, for clash messages. */
    private record NameOwner(Identity watcher, String description) {
    }

    private final RegistryServices services;
    private final WatcherFactory watcherFactory;
    private final Consumer<Watcher<?>> created;
    private final Map<Identity, Watcher<?>> watchersByIdentity = new LinkedHashMap<>();
    private final Map<String, Watcher<?>> watchersByName = new LinkedHashMap<>();
    private final Map<String, List<Watcher<?>>> groups = new LinkedHashMap<>();
    private final Map<String, NameOwner> names = new HashMap<>();

    /** {@code created}: told of each watcher this table creates. */
    WatcherTable(RegistryServices services, WatcherFactory watcherFactory, Consumer<Watcher<?>> created) {
        this.services = services;
        this.watcherFactory = watcherFactory;
        this.created = created;
    }

    /** Every watcher, in the order they were created. */
    List<Watcher<?>> watchers() {
        return List.copyOf(watchersByIdentity.values());
    }

    /** The watcher with this name (declared or derived). */
    Optional<Watcher<?>> watcher(String name) {
        return Optional.ofNullable(watchersByName.get(name));
    }

    /** The watcher of that name, or the members of the group of that name; empty when the name is unknown. */
    List<Watcher<?>> watchersNamed(String name) {
        Watcher<?> watcher = watchersByName.get(name);
        return watcher != null ? List.of(watcher) : groups.getOrDefault(name, List.of());
    }

    /** Every name taken. */
    Set<String> names() {
        return Set.copyOf(names.keySet());
    }

    /** Takes {@code name} for a reconciler, described as {@code description} in a clash message. */
    void claim(String name, String description) {
        claim(name, new NameOwner(null, description));
    }

    /** {@code shard}: the filter of a sharded reconciler's watcher, whose name gets a {@code -sharded} suffix. */
    @SuppressWarnings("unchecked")
    <T extends KubernetesObject> Watcher<T> watcher(WatcherSpec<T> declaration, ShardFilter shard) {
        String declared = declaration.effectiveName();
        String name = shard == null ? declared : declared + "-sharded";
        Identity identity = new Identity(declaration.type(), declaration.scope(),
                declaration.options() != null ? declaration.options() : services.settings().watchOptions(declared),
                declaration.backOff() != null ? declaration.backOff() : services.settings().watcherBackOff(declared),
                services.settings().watcherBackOffPolicy(declared), shard);
        String description = "watcher of " + declaration.describe();
        claim(name, new NameOwner(identity, description));
        Watcher<T> watcher = (Watcher<T>) watchersByIdentity.get(identity);
        if (watcher == null) {
            watcher = create(name, declaration, identity);
            watchersByIdentity.put(identity, watcher);
            created.accept(watcher);
        }
        watchersByName.putIfAbsent(name, watcher);
        declaration.indexes().forEach(watcher::addIndex); // a shared watcher keeps every declaration's indexes
        return watcher;
    }

    <T extends KubernetesObject> List<Watcher<T>> group(String name, List<WatcherSpec<T>> members,
            ShardFilter shard) {
        if (members.isEmpty()) {
            throw new IllegalArgumentException("watcher group " + name + " has no members");
        }
        List<Watcher<?>> existing = groups.get(name);
        List<Watcher<T>> watchers = new ArrayList<>();
        if (existing == null) {
            claim(name, new NameOwner(null, "watcher group " + name + " of " + members.get(0).describe()));
        }
        members.forEach(member -> watchers.add(watcher(member, shard)));
        if (existing != null && !existing.equals(watchers)) {
            throw new IllegalStateException("the watcher group '" + name + "' is declared twice, differently");
        }
        groups.put(name, List.copyOf(watchers));
        return watchers;
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

    private <T extends KubernetesObject> Watcher<T> create(String name, WatcherSpec<T> declaration,
            Identity identity) {
        WatcherBuilder<T> builder = watcherFactory.builder(declaration.type())
                .name(name)
                .scope(declaration.scope())
                .options(identity.options())
                .backOff(identity.backOff())
                .backOffPolicy(identity.backOffPolicy())
                .timeSource(services.time())
                .threadFactory(services.watcherThreads());
        return (identity.shard() == null ? builder : builder.shardFilter(identity.shard())).build();
    }
}
