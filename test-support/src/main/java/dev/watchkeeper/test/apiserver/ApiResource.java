package dev.watchkeeper.test.apiserver;

import java.util.List;
import java.util.Objects;

/**
 * One servable resource: a group, version and plural with the facts discovery reports about it.
 *
 * <pre>{@code
 * ApiResource leases = ApiResource.namespaced("coordination.k8s.io", "v1", "leases", "Lease");
 * }</pre>
 *
 * @param group         the API group, {@code ""} for core
 * @param version       e.g. {@code v1}
 * @param plural        e.g. {@code configmaps}
 * @param singular      e.g. {@code configmap}
 * @param kind          e.g. {@code ConfigMap}
 * @param listKind      e.g. {@code ConfigMapList}
 * @param namespaced    whether objects live in a namespace
 * @param shortNames    e.g. {@code [cm]}
 * @param hasStatus     whether a {@code /status} subresource exists (then the main resource ignores {@code .status})
 */
public record ApiResource(String group, String version, String plural, String singular, String kind, String listKind,
                          boolean namespaced, List<String> shortNames, boolean hasStatus) {

    /** The verbs every resource of this server supports. */
    public static final List<String> VERBS =
            List.of("create", "delete", "deletecollection", "get", "list", "patch", "update", "watch");

    public ApiResource {
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(plural, "plural");
        Objects.requireNonNull(kind, "kind");
        singular = singular == null || singular.isEmpty() ? kind.toLowerCase(java.util.Locale.ROOT) : singular;
        listKind = listKind == null || listKind.isEmpty() ? kind + "List" : listKind;
        shortNames = List.copyOf(shortNames);
    }

    /** A namespaced resource without status subresource or short names. */
    public static ApiResource namespaced(String group, String version, String plural, String kind) {
        return new ApiResource(group, version, plural, null, kind, null, true, List.of(), false);
    }

    /** A cluster-scoped resource without status subresource or short names. */
    public static ApiResource clusterScoped(String group, String version, String plural, String kind) {
        return new ApiResource(group, version, plural, null, kind, null, false, List.of(), false);
    }

    /** This resource with the given short names. */
    public ApiResource withShortNames(String... names) {
        return new ApiResource(group, version, plural, singular, kind, listKind, namespaced, List.of(names), hasStatus);
    }

    /** This resource with a {@code /status} subresource. */
    public ApiResource withStatus() {
        return new ApiResource(group, version, plural, singular, kind, listKind, namespaced, shortNames, true);
    }

    /** {@code v1} for core, else {@code group/version}. */
    public String apiVersion() {
        return group.isEmpty() ? version : group + "/" + version;
    }

    /** The storage identity shared by all versions: {@code plural} or {@code plural.group}. */
    public String groupResource() {
        return group.isEmpty() ? plural : plural + "." + group;
    }
}
