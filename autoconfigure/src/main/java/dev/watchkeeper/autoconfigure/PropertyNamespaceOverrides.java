package dev.watchkeeper.autoconfigure;

import dev.watchkeeper.annotation.NamespaceOverrides;
import dev.watchkeeper.autoconfigure.WatchkeeperProperties.ReconcilerProperties;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

/**
 * {@code watchkeeper.reconcilers.<name>.namespaces}, for the {@code @Reconciler} parser: both of its callers (the
 * early watcher registrar and the post-processor) get the same namespaces. A value that is not a namespace name
 * fails start-up with a message naming the property.
 */
final class PropertyNamespaceOverrides {

    private static final String PREFIX = "watchkeeper.reconcilers";

    private PropertyNamespaceOverrides() {
    }

    /**
     * The overrides in the environment's {@code watchkeeper.reconcilers}, binding that map alone: both callers run
     * before any bean exists, where binding all of {@link WatchkeeperProperties} (its bean binds it later) would cost
     * start-up time for nothing.
     */
    static NamespaceOverrides of(Environment environment) {
        return of(Binder.get(environment).bind(PREFIX, Bindable.mapOf(String.class, ReconcilerProperties.class))
                .orElse(Map.of()));
    }

    /** Checks every reconciler's namespaces at once, so a wrong one fails before any is parsed. */
    static NamespaceOverrides of(Map<String, ReconcilerProperties> reconcilers) {
        reconcilers.forEach((name, own) -> own.namespaces().forEach(namespace -> {
            if (!PropertyWatcher.isNamespaceName(namespace)) {
                throw WatchkeeperPropertyException.invalid(PropertyLayers.entry(PREFIX, name) + ".namespaces",
                        namespace, "is not a namespace name");
            }
        }));
        Map<String, ReconcilerProperties> bound = Map.copyOf(reconcilers);
        return reconcilerName -> List.copyOf(bound.getOrDefault(reconcilerName, ReconcilerProperties.NONE).namespaces());
    }
}
