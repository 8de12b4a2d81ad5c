package dev.watchkeeper.autoconfigure;

import dev.watchkeeper.internal.reconcile.Reconciler;
import dev.watchkeeper.internal.registry.WatchkeeperRegistry;
import dev.watchkeeper.internal.watch.Watcher;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.context.SmartLifecycle;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * Fails start-up when a {@code watchkeeper.watchers.<name>.*} or {@code watchkeeper.reconcilers.<name>.*} override
 * names no watcher or reconciler, listing the known names; otherwise the override would be ignored without a word.
 * An entry that declares a watcher ({@code resource}, {@code api-version}, …) is not an override. Overrides of a
 * property group's member, or of a reconciler's namespace set as a whole, fail too, naming where to set them. Runs as the last
 * step before the registry starts, once every {@code @Reconciler} method and every watcher bean is registered.
 */
class OverrideNamesCheck implements SmartLifecycle {

    private final WatchkeeperProperties properties;
    private final WatchkeeperRegistry registry;
    private final ConfigurableEnvironment environment;
    private volatile boolean checked;

    OverrideNamesCheck(WatchkeeperProperties properties, WatchkeeperRegistry registry,
            ConfigurableEnvironment environment) {
        this.properties = properties;
        this.registry = registry;
        this.environment = environment;
    }

    @Override
    public void start() {
        Set<String> watchers = new TreeSet<>();
        registry.watchers().stream().map(Watcher::name).forEach(watchers::add);
        Map<String, String> groupOfMember = new HashMap<>();
        Set<String> propertyGroups = new HashSet<>();
        for (PropertyWatcher declared : PropertyWatcher.declaredIn(properties.watchers())) {
            watchers.add(declared.name());
            if (declared.grouped()) {
                propertyGroups.add(declared.name());
                declared.declarations().forEach(member -> groupOfMember.put(member.name(), declared.name()));
            }
        }
        for (String name : properties.watchers().entrySet().stream()
                .filter(entry -> !entry.getValue().declaresWatcher()).map(Map.Entry::getKey).toList()) {
            List<Watcher<?>> members = registry.watchersNamed(name);
            if (registry.watcher(name).isEmpty() && !members.isEmpty() && !propertyGroups.contains(name)) {
                PropertyKeys.Written written = written("watchkeeper.watchers", name);
                throw WatchkeeperPropertyException.invalid(written.key(), written.value(), "'" + name + "' is the"
                        + " namespace set of a reconciler, one watcher per namespace with settings of its own; set"
                        + " them under " + members.stream().map(member -> PropertyLayers.entry(
                                "watchkeeper.watchers", member.name())).collect(Collectors.joining(", ")) + " instead");
            }
            String group = groupOfMember.get(name);
            if (group != null) {
                PropertyKeys.Written written = written("watchkeeper.watchers", name);
                throw WatchkeeperPropertyException.invalid(written.key(), written.value(), "'" + name
                        + "' is a member of the namespace group '" + group + "', which takes the group's settings;"
                        + " set it under " + PropertyLayers.entry("watchkeeper.watchers", group) + " instead");
            }
            check("watchkeeper.watchers", name, "watcher", watchers, known -> !registry.watchersNamed(known).isEmpty());
            WatcherProperties.WatchOverrides watch = properties.watchers().get(name).watch();
            if (watch != null && watch.metadataOnly() != null) {
                String property = PropertyLayers.entry("watchkeeper.watchers", name) + ".watch.metadata-only";
                throw WatchkeeperPropertyException.invalid(property, watch.metadataOnly(), "'" + name + "' is"
                        + " declared in code, whose type says what it caches; declare it with"
                        + " ResourceType.metadataOnly() (or a PartialObjectMetadata class) instead");
            }
        }
        Set<String> reconcilers = new TreeSet<>();
        registry.reconcilers().stream().map(Reconciler::name).forEach(reconcilers::add);
        properties.reconcilers().keySet().forEach(name -> check("watchkeeper.reconcilers", name, "reconciler",
                reconcilers, known -> registry.reconciler(known).isPresent()));
        checked = true;
    }

    private void check(String map, String name, String what, Set<String> known, Predicate<String> exists) {
        if (exists.test(name)) {
            return;
        }
        PropertyKeys.Written written = written(map, name);
        throw WatchkeeperPropertyException.unknownName(written.key(), written.value(), what, name, known);
    }

    /** The first property written under {@code map}'s entry {@code name}, as the user wrote it. */
    private PropertyKeys.Written written(String map, String name) {
        String entry = PropertyLayers.entry(map, name);
        ConfigurationPropertyName prefix = ConfigurationPropertyName.adapt(entry, '.');
        return PropertyKeys.written(environment).stream()
                .filter(candidate -> prefix.isAncestorOf(candidate.name())).findFirst()
                .orElse(new PropertyKeys.Written(entry, prefix, null));
    }

    @Override
    public void stop() {
    }

    @Override
    public boolean isRunning() {
        return checked;
    }

    /** Just before the registry, so nothing has started yet when an override is wrong. */
    @Override
    public int getPhase() {
        return WatchkeeperRegistry.PHASE - 1;
    }
}
