package dev.watchkeeper.internal.resource;

import java.util.Objects;

/**
 * An API resource whose plural and scope are known: enough to build request paths.
 *
 * @param group      API group, empty for the core group
 * @param version    API version
 * @param plural     plural resource name, e.g. {@code configmaps}
 * @param namespaced whether objects live in namespaces
 */
public record ResolvedResource(String group, String version, String plural, boolean namespaced) {

    public ResolvedResource {
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(plural, "plural");
    }

    /** The collection path, e.g. {@code /api/v1/namespaces/default/configmaps}; {@code namespace} null = all. */
    public String collectionPath(String namespace) {
        String prefix = group.isEmpty() ? "/api/" + version : "/apis/" + group + "/" + version;
        return namespaced && namespace != null
                ? prefix + "/namespaces/" + namespace + "/" + plural
                : prefix + "/" + plural;
    }

    /** {@code plural.group}, the name a CRD for this resource has; just the plural in the core group. */
    public String qualifiedName() {
        return group.isEmpty() ? plural : plural + "." + group;
    }

    /** {@code v1/configmaps} or {@code samples.watchkeeper.dev/v1/configmapgenerators}. */
    @Override
    public String toString() {
        return (group.isEmpty() ? version : group + "/" + version) + "/" + plural;
    }
}
