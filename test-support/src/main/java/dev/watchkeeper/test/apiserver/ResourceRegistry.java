package dev.watchkeeper.test.apiserver;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

/** The resources the server knows: built-ins plus those of created CustomResourceDefinitions; answers discovery. */
final class ResourceRegistry {

    static final String CRD_GROUP = "apiextensions.k8s.io";
    static final String CRD_PLURAL = "customresourcedefinitions";

    private final List<ApiResource> resources = new CopyOnWriteArrayList<>();
    private final Set<String> builtIns = new HashSet<>();

    ResourceRegistry() {
        resources.add(ApiResource.clusterScoped("", "v1", "namespaces", "Namespace").withShortNames("ns").withStatus());
        resources.add(ApiResource.namespaced("", "v1", "configmaps", "ConfigMap").withShortNames("cm"));
        resources.add(ApiResource.namespaced("", "v1", "secrets", "Secret"));
        resources.add(ApiResource.namespaced("", "v1", "pods", "Pod").withShortNames("po").withStatus());
        resources.add(ApiResource.namespaced("", "v1", "services", "Service").withShortNames("svc").withStatus());
        resources.add(ApiResource.namespaced("", "v1", "serviceaccounts", "ServiceAccount").withShortNames("sa"));
        resources.add(ApiResource.namespaced("", "v1", "podtemplates", "PodTemplate"));
        resources.add(ApiResource.namespaced("", "v1", "events", "Event").withShortNames("ev"));
        resources.add(ApiResource.namespaced("apps", "v1", "deployments", "Deployment").withShortNames("deploy")
                .withStatus());
        resources.add(ApiResource.namespaced("batch", "v1", "jobs", "Job").withStatus());
        resources.add(ApiResource.namespaced("networking.k8s.io", "v1", "ingresses", "Ingress").withShortNames("ing")
                .withStatus());
        resources.add(ApiResource.namespaced("coordination.k8s.io", "v1", "leases", "Lease"));
        resources.add(ApiResource.namespaced("events.k8s.io", "v1", "events", "Event").withShortNames("ev"));
        resources.add(ApiResource.clusterScoped(CRD_GROUP, "v1", CRD_PLURAL, "CustomResourceDefinition")
                .withShortNames("crd", "crds").withStatus());
        String rbac = "rbac.authorization.k8s.io";
        resources.add(ApiResource.namespaced(rbac, "v1", "roles", "Role"));
        resources.add(ApiResource.namespaced(rbac, "v1", "rolebindings", "RoleBinding"));
        resources.add(ApiResource.clusterScoped(rbac, "v1", "clusterroles", "ClusterRole"));
        resources.add(ApiResource.clusterScoped(rbac, "v1", "clusterrolebindings", "ClusterRoleBinding"));
        resources.forEach(r -> builtIns.add(r.groupResource()));
    }

    /** Whether a resource is one of the server's own (not defined by a CRD or {@code serve}). */
    boolean isBuiltIn(ApiResource resource) {
        return builtIns.contains(resource.groupResource());
    }

    /** Every servable resource, in registration order. */
    List<ApiResource> all() {
        return List.copyOf(resources);
    }

    Optional<ApiResource> find(String group, String version, String plural) {
        return resources.stream()
                .filter(r -> r.group().equals(group) && r.version().equals(version) && r.plural().equals(plural))
                .findFirst();
    }

    /** The first resource of a group (any version) with this plural. */
    Optional<ApiResource> findAnyVersion(String group, String plural) {
        return resources.stream().filter(r -> r.group().equals(group) && r.plural().equals(plural)).findFirst();
    }

    Optional<ApiResource> findByKind(String apiVersion, String kind) {
        return resources.stream().filter(r -> r.apiVersion().equals(apiVersion) && r.kind().equals(kind)).findFirst();
    }

    void register(ApiResource resource) {
        resources.removeIf(r -> sameVersionedResource(r, resource));
        resources.add(resource);
    }

    /** Removes every version of {@code plural.group}; returns whether any was known. */
    boolean unregister(String group, String plural) {
        return resources.removeIf(r -> r.group().equals(group) && r.plural().equals(plural));
    }

    /**
     * The resources a CRD object defines: one per served version.
     *
     * @throws StatusException 422 when the CRD lacks group, names or versions
     */
    static List<ApiResource> fromCustomResourceDefinition(JsonObject crd) {
        JsonObject spec = Json.object(crd, "spec");
        JsonObject names = Json.object(spec, "names");
        String group = Json.string(spec, "group");
        String plural = Json.string(names, "plural");
        String kind = Json.string(names, "kind");
        String crdName = Json.string(Json.object(crd, "metadata"), "name");
        if (group == null || plural == null || kind == null || !spec.has("versions")) {
            throw Statuses.invalid(CRD_PLURAL, crdName,
                    "CustomResourceDefinition needs spec.group, spec.names.plural, spec.names.kind and spec.versions");
        }
        List<String> shortNames = new ArrayList<>();
        if (names.has("shortNames")) {
            names.getAsJsonArray("shortNames").forEach(n -> shortNames.add(n.getAsString()));
        }
        boolean namespaced = !"Cluster".equals(Json.string(spec, "scope"));
        List<ApiResource> result = new ArrayList<>();
        for (JsonElement element : spec.getAsJsonArray("versions")) {
            JsonObject version = element.getAsJsonObject();
            if (version.has("served") && !version.get("served").getAsBoolean()) {
                continue;
            }
            boolean status = Json.object(version, "subresources").has("status");
            result.add(new ApiResource(group, Json.string(version, "name"), plural, Json.string(names, "singular"),
                    kind, Json.string(names, "listKind"), namespaced, shortNames, status));
        }
        return result;
    }

    /** {@code /api}: the core versions. */
    JsonObject coreVersions(String serverAddress) {
        JsonObject body = new JsonObject();
        body.addProperty("kind", "APIVersions");
        JsonArray versions = new JsonArray();
        versions.add("v1");
        body.add("versions", versions);
        JsonArray addresses = new JsonArray();
        JsonObject address = new JsonObject();
        address.addProperty("clientCIDR", "0.0.0.0/0");
        address.addProperty("serverAddress", serverAddress);
        addresses.add(address);
        body.add("serverAddressByClientCIDRs", addresses);
        return body;
    }

    /** {@code /apis}: every named group with its versions. */
    JsonObject groupList(Predicate<ApiResource> visible) {
        JsonObject body = new JsonObject();
        body.addProperty("kind", "APIGroupList");
        body.addProperty("apiVersion", "v1");
        JsonArray groups = new JsonArray();
        groupVersions(visible).forEach((group, versions) -> {
            if (!group.isEmpty()) {
                groups.add(apiGroup(group, versions));
            }
        });
        body.add("groups", groups);
        return body;
    }

    /** {@code /apis/{group}}, if any visible resource is in it. */
    Optional<JsonObject> group(String group, Predicate<ApiResource> visible) {
        Set<String> versions = groupVersions(visible).get(group);
        return versions == null ? Optional.empty() : Optional.of(apiGroup(group, versions));
    }

    /** {@code /api/v1} or {@code /apis/{group}/{version}}, if any visible resource is in it. */
    Optional<JsonObject> resourceList(String group, String version, Predicate<ApiResource> visible) {
        JsonArray list = new JsonArray();
        for (ApiResource r : resources) {
            if (!r.group().equals(group) || !r.version().equals(version) || !visible.test(r)) {
                continue;
            }
            JsonObject entry = new JsonObject();
            entry.addProperty("name", r.plural());
            entry.addProperty("singularName", r.singular());
            entry.addProperty("namespaced", r.namespaced());
            entry.addProperty("kind", r.kind());
            entry.add("verbs", strings(ApiResource.VERBS));
            if (!r.shortNames().isEmpty()) {
                entry.add("shortNames", strings(r.shortNames()));
            }
            list.add(entry);
            if (r.hasStatus()) {
                JsonObject status = new JsonObject();
                status.addProperty("name", r.plural() + "/status");
                status.addProperty("singularName", "");
                status.addProperty("namespaced", r.namespaced());
                status.addProperty("kind", r.kind());
                status.add("verbs", strings(List.of("get", "patch", "update")));
                list.add(status);
            }
        }
        if (list.isEmpty()) {
            return Optional.empty();
        }
        JsonObject body = new JsonObject();
        body.addProperty("kind", "APIResourceList");
        body.addProperty("apiVersion", "v1");
        body.addProperty("groupVersion", group.isEmpty() ? version : group + "/" + version);
        body.add("resources", list);
        return Optional.of(body);
    }

    private Map<String, Set<String>> groupVersions(Predicate<ApiResource> visible) {
        Map<String, Set<String>> result = new LinkedHashMap<>();
        for (ApiResource r : resources) {
            if (visible.test(r)) {
                result.computeIfAbsent(r.group(), g -> new LinkedHashSet<>()).add(r.version());
            }
        }
        return result;
    }

    private static JsonObject apiGroup(String group, Set<String> versions) {
        JsonObject entry = new JsonObject();
        entry.addProperty("kind", "APIGroup");
        entry.addProperty("apiVersion", "v1");
        entry.addProperty("name", group);
        JsonArray list = new JsonArray();
        for (String version : versions) {
            list.add(groupVersion(group, version));
        }
        entry.add("versions", list);
        entry.add("preferredVersion", groupVersion(group, versions.iterator().next()));
        return entry;
    }

    private static JsonObject groupVersion(String group, String version) {
        JsonObject gv = new JsonObject();
        gv.addProperty("groupVersion", group + "/" + version);
        gv.addProperty("version", version);
        return gv;
    }

    private static JsonArray strings(List<String> values) {
        JsonArray array = new JsonArray();
        values.forEach(array::add);
        return array;
    }

    private static boolean sameVersionedResource(ApiResource a, ApiResource b) {
        return a.group().equals(b.group()) && a.version().equals(b.version()) && a.plural().equals(b.plural());
    }
}
