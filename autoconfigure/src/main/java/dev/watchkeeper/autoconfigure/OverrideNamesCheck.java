package dev.watchkeeper.autoconfigure;

import dev.watchkeeper.reconcile.ReconcileLoop;
import dev.watchkeeper.registry.WatchkeeperRegistry;
import dev.watchkeeper.watch.Watcher;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.context.SmartLifecycle;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * Fails start-up when a {@code watchkeeper.watchers.<name>.*} or {@code watchkeeper.reconcilers.<name>.*} override
 * names no watcher or reconciler, listing the known names; otherwise the override would be ignored without a word.
 * An entry that declares a watcher ({@code resource}, {@code api-version}, …) is not an override. Runs as the last
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
        PropertyWatcher.declaredIn(properties).forEach(declared -> watchers.add(declared.name()));
        properties.watchers().entrySet().stream().filter(entry -> !entry.getValue().declaresWatcher())
                .map(Map.Entry::getKey)
                .forEach(name -> check("watchkeeper.watchers", name, "watcher", watchers,
                        known -> !registry.watchersNamed(known).isEmpty()));
        Set<String> reconcilers = new TreeSet<>();
        registry.reconcilers().stream().map(ReconcileLoop::name).forEach(reconcilers::add);
        properties.reconcilers().keySet().forEach(name -> check("watchkeeper.reconcilers", name, "reconciler",
                reconcilers, known -> registry.reconciler(known).isPresent()));
        checked = true;
    }

    private void check(String map, String name, String what, Set<String> known, Predicate<String> exists) {
        if (exists.test(name)) {
            return;
        }
        String entry = PropertyLayers.entry(map, name);
        ConfigurationPropertyName prefix = ConfigurationPropertyName.adapt(entry, '.');
        PropertyKeys.Written written = PropertyKeys.written(environment).stream()
                .filter(candidate -> prefix.isAncestorOf(candidate.name())).findFirst()
                .orElse(new PropertyKeys.Written(entry, prefix, null));
        throw WatchkeeperPropertyException.unknownName(written.key(), written.value(), what, name, known);
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
