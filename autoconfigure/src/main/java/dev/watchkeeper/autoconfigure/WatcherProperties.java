package dev.watchkeeper.autoconfigure;

import dev.watchkeeper.internal.watch.InitialListStrategy;
import dev.watchkeeper.internal.watch.ListSemantics;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Set;
import org.springframework.util.unit.DataSize;

/**
 * One watcher: declared here when {@code resource} (or {@code api-version} with {@code kind} or {@code plural})
 * is set, otherwise overrides for the watcher of that name declared elsewhere. Unset values inherit the global
 * ones.
 *
 * <pre>
 * watchkeeper.watchers.app-config.resource=v1/configmaps
 * watchkeeper.watchers.app-config.namespaces=team-a,team-b
 * watchkeeper.watchers.app-config.label-selector=app=web
 * </pre>
 *
 * @param resource      What to watch: {@code <group>/<version>/<plural>}, or {@code v1/<plural>} for the core
 *                      group, e.g. {@code apps/v1/deployments}; built-in resources decode into the client's model
 *                      class, others into {@code DynamicKubernetesObject}
 * @param apiVersion    Instead of {@code resource}: the API version, e.g. {@code v1} or {@code example.com/v1},
 *                      with {@code kind} or {@code plural}
 * @param kind          With {@code api-version}: the kind, e.g. {@code ConfigMap}
 * @param plural        With {@code api-version}: the plural resource name, e.g. {@code configmaps}
 * @param namespaced    Whether a custom resource is namespaced; unset = ask the API server (discovery)
 * @param namespace     The one namespace to watch; unset (and no {@code namespaces}) = all namespaces
 * @param namespaces    Several namespaces: one watcher per namespace, named {@code <name>@<namespace>}, each
 *                      with its own backoff and state, behind one store named {@code <name>}
 * @param labelSelector A label selector, e.g. {@code app=web,tier!=db}
 * @param fieldSelector A field selector, e.g. {@code metadata.name=app-config}
 * @param backoff       Backoff overrides
 * @param watch         List/watch overrides
 */
public record WatcherProperties(String resource, String apiVersion, String kind, String plural,
        Boolean namespaced, String namespace, Set<String> namespaces, String labelSelector, String fieldSelector,
        BackoffOverrides backoff, WatchOverrides watch) {

    /** No declaration and no overrides. */
    static final WatcherProperties NONE = new WatcherProperties(null, null, null, null, null, null, null, null,
            null, null, null);

    public WatcherProperties {
        namespaces = namespaces == null ? Set.of() : Collections.unmodifiableSet(new LinkedHashSet<>(namespaces));
    }

    /** Whether this entry declares a watcher rather than only overriding one. */
    public boolean declaresWatcher() {
        return resource != null || apiVersion != null || kind != null || plural != null;
    }

    /**
     * Backoff values to override; unset ones inherit.
     *
     * @param initialInterval The first wait
     * @param maxInterval     The cap of the growing wait
     * @param multiplier      Growth per consecutive failure
     * @param jitter          Random extra fraction of the wait
     * @param resetAfter      Start over after this long without a backoff (watchers only)
     * @param maxElapsedTime  Give up after failing this long (watchers only)
     */
    public record BackoffOverrides(Duration initialInterval, Duration maxInterval, Double multiplier, Double jitter,
            Duration resetAfter, Duration maxElapsedTime) {

        /** No overrides. */
        static final BackoffOverrides NONE = new BackoffOverrides(null, null, null, null, null, null);
    }

    /**
     * List/watch values to override; unset ones inherit.
     *
     * @param pageSize           Items per list page
     * @param timeout            Server-side watch timeout
     * @param initialList        Initial list strategy
     * @param listSemantics      The lists of list-watch: {@code consistent} or {@code cached}
     * @param stripManagedFields Drop managedFields before caching
     * @param autoFallbackAfter  With {@code auto}: how long a streaming list may take to end its initial events
     * @param maxEventSize       Longest watch event read
     * @param metadataOnly       For a watcher declared here: ask the API server for the objects' metadata only
     *                           ({@code PartialObjectMetadata}) and cache that, not their contents
     */
    public record WatchOverrides(Integer pageSize, Duration timeout, InitialListStrategy initialList,
            ListSemantics listSemantics, Boolean stripManagedFields, Duration autoFallbackAfter, DataSize maxEventSize, Boolean metadataOnly) {

        /** No overrides. */
        static final WatchOverrides NONE = new WatchOverrides(null, null, null, null, null, null, null, null);

        /** Whether {@code metadata-only} is set to true. */
        boolean isMetadataOnly() {
            return Boolean.TRUE.equals(metadataOnly);
        }
    }
}
