package dev.watchkeeper.autoconfigure;

import dev.watchkeeper.internal.annotation.NamespaceOverrides;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

/**
 * The one place where a reconciler's own properties ({@code watchkeeper.reconcilers.<name>.*}) meet its
 * {@code @Reconciler} annotation: the property wins over the annotation's attribute, which wins over the global
 * {@code watchkeeper.reconcile.*} property. The {@code @Reconciler} parser asks it for namespaces (before any bean
 * exists), {@link PropertiesWatchkeeperSettings} for concurrency and debounce. A value that is not a namespace name
 * fails start-up with a message naming the property.
 */
final class ReconcilerOverrides implements NamespaceOverrides {

    private static final String PREFIX = "watchkeeper.reconcilers";

    private final Map<String, ReconcilerProperties> reconcilers;

    private ReconcilerOverrides(Map<String, ReconcilerProperties> reconcilers) {
        this.reconcilers = Map.copyOf(reconcilers);
    }

    /**
     * The overrides in the environment's {@code watchkeeper.reconcilers}, binding that map alone: read before any
     * bean exists, where binding all of {@link WatchkeeperProperties} (its bean binds it later) would cost start-up
     * time for nothing.
     */
    static ReconcilerOverrides bind(Environment environment) {
        return of(Binder.get(environment).bind(PREFIX, Bindable.mapOf(String.class, ReconcilerProperties.class))
                .orElse(Map.of()));
    }

    /** Checks every reconciler's namespaces at once, so a wrong one fails before any reconciler is parsed. */
    static ReconcilerOverrides of(Map<String, ReconcilerProperties> reconcilers) {
        reconcilers.forEach((name, own) -> own.namespaces().forEach(namespace -> {
            if (!PropertyWatcher.isNamespaceName(namespace)) {
                throw WatchkeeperPropertyException.invalid(PropertyLayers.entry(PREFIX, name) + ".namespaces",
                        namespace, "is not a namespace name");
            }
        }));
        return new ReconcilerOverrides(reconcilers);
    }

    /** The configured namespaces, replacing the annotation's {@code namespace} and {@code namespaces}. */
    @Override
    public List<String> namespaces(String reconcilerName, Supplier<List<String>> annotated) {
        List<String> own = List.copyOf(own(reconcilerName).namespaces());
        return own.isEmpty() ? annotated.get() : own;
    }

    /** {@code watchkeeper.reconcilers.<name>.concurrency}, else the annotation's. */
    int concurrency(String reconcilerName, int annotated) {
        Integer own = own(reconcilerName).concurrency();
        return own != null ? own : annotated;
    }

    /**
     * {@code watchkeeper.reconcilers.<name>.debounce}, else the annotation's ({@code null} when it sets none), else
     * {@code watchkeeper.reconcile.debounce}.
     */
    Duration debounce(String reconcilerName, Duration annotated, Duration global) {
        Duration own = own(reconcilerName).debounce();
        return own != null ? own : annotated != null ? annotated : global;
    }

    /**
     * {@code watchkeeper.reconcilers.<name>.timeout}, else the annotation's ({@code null} when it sets none), else
     * {@code watchkeeper.reconcile.timeout}.
     */
    Duration timeout(String reconcilerName, Duration annotated, Duration global) {
        Duration own = own(reconcilerName).timeout();
        return own != null ? own : annotated != null ? annotated : global;
    }

    /**
     * Whether the reconciler is sharded: {@code watchkeeper.reconcilers.<name>.sharding.enabled}, else
     * {@code global} ({@code watchkeeper.sharding.enabled}).
     */
    boolean sharded(String reconcilerName, boolean global) {
        ReconcilerProperties.ReconcilerSharding own = own(reconcilerName).sharding();
        return own != null && own.enabled() != null ? own.enabled() : global;
    }

    /**
     * Whether the reconciler writes status conditions: {@code watchkeeper.reconcilers.<name>.status-conditions.enabled},
     * else {@code global} ({@code watchkeeper.reconcile.status-conditions.enabled}).
     */
    boolean statusConditions(String reconcilerName, boolean global) {
        ReconcilerProperties.StatusConditionsOverride own = own(reconcilerName).statusConditions();
        return own != null && own.enabled() != null ? own.enabled() : global;
    }

    /** The reconcilers whose own properties turn sharding on, sorted. */
    List<String> shardedByOwnProperty() {
        return reconcilers.entrySet().stream()
                .filter(entry -> entry.getValue().sharding() != null
                        && Boolean.TRUE.equals(entry.getValue().sharding().enabled()))
                .map(Map.Entry::getKey).sorted().toList();
    }

    /** The reconciler's properties; {@code null} (settings checked before any reconciler is known) has none. */
    private ReconcilerProperties own(String reconcilerName) {
        return reconcilerName == null ? ReconcilerProperties.NONE
                : reconcilers.getOrDefault(reconcilerName, ReconcilerProperties.NONE);
    }
}
