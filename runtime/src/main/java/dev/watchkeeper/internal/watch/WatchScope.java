package dev.watchkeeper.internal.watch;

import dev.watchkeeper.internal.resource.ResourceType;

/**
 * Where and what to watch within a resource.
 *
 * @param namespace     a namespace, or {@code null} for all namespaces (and for cluster-scoped resources)
 * @param labelSelector a label selector such as {@code app=web,tier!=db}, or {@code null}
 * @param fieldSelector a field selector such as {@code metadata.name=x}, or {@code null}
 */
public record WatchScope(String namespace, String labelSelector, String fieldSelector) {

    public WatchScope {
        namespace = blankToNull(namespace);
        labelSelector = blankToNull(labelSelector);
        fieldSelector = blankToNull(fieldSelector);
    }

    /** Every namespace (and cluster-scoped resources), no selectors. */
    public static WatchScope allNamespaces() {
        return new WatchScope(null, null, null);
    }

    /** One namespace, no selectors. */
    public static WatchScope namespace(String namespace) {
        return new WatchScope(namespace, null, null);
    }

    /** This scope in another namespace ({@code null} for all). */
    public WatchScope withNamespace(String namespace) {
        return new WatchScope(namespace, labelSelector, fieldSelector);
    }

    /** This scope with a label selector ({@code null} for none). */
    public WatchScope withLabelSelector(String selector) {
        return new WatchScope(namespace, selector, fieldSelector);
    }

    /** This scope with a field selector ({@code null} for none). */
    public WatchScope withFieldSelector(String selector) {
        return new WatchScope(namespace, labelSelector, selector);
    }

    /** {@code namespace default} or {@code all namespaces}, for messages. */
    public String describe() {
        return namespace == null ? "all namespaces" : "namespace " + namespace;
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value;
    }

    /**
     * The name of a watcher of {@code type} in this scope when none is declared (docs/semantics.md §11):
     * {@code <plural>[.<group>][-metadata]@<namespace|all>}, plus a short hash of the selectors when there are any.
     */
    public String derivedWatcherName(ResourceType<?> type) {
        String selectors = (labelSelector == null ? "" : labelSelector) + "|"
                + (fieldSelector == null ? "" : fieldSelector);
        String hash = "|".equals(selectors) ? "" : "-" + Integer.toHexString(selectors.hashCode() & 0xfffff);
        return type.qualifiedName() + (type.isMetadataOnly() ? "-metadata" : "") + "@"
                + (namespace == null ? "all" : namespace) + hash;
    }
}
