package dev.watchkeeper.autoconfigure;

import dev.watchkeeper.annotation.NamespaceOverrides;
import dev.watchkeeper.autoconfigure.WatchkeeperProperties.ReconcilerProperties;
import java.util.List;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

/**
 * {@code watchkeeper.reconcilers.<name>.namespaces}, for the {@code @Reconciler} parser: both of its callers (the
 * early watcher registrar and the post-processor) get the same namespaces. A value that is not a namespace name
 * fails start-up with a message naming the property.
 */
final class PropertyNamespaceOverrides {

    private PropertyNamespaceOverrides() {
    }

    /** The overrides in the environment's {@code watchkeeper.*} properties. */
    static NamespaceOverrides of(Environment environment) {
        return of(Binder.get(environment).bindOrCreate("watchkeeper", WatchkeeperProperties.class));
    }

    /** Checks every reconciler's namespaces at once, so a wrong one fails before any is parsed. */
    static NamespaceOverrides of(WatchkeeperProperties properties) {
        properties.reconcilers().forEach((name, own) -> own.namespaces().forEach(namespace -> {
            if (!PropertyWatcher.isNamespaceName(namespace)) {
                throw WatchkeeperPropertyException.invalid(
                        PropertyLayers.entry("watchkeeper.reconcilers", name) + ".namespaces", namespace,
                        "is not a namespace name");
            }
        }));
        return reconcilerName -> List.copyOf(
                properties.reconcilers().getOrDefault(reconcilerName, ReconcilerProperties.NONE).namespaces());
    }
}
