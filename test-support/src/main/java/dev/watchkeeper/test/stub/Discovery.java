package dev.watchkeeper.test.stub;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The discovery documents a watcher reads to learn a resource's plural and scope: {@code /api}, {@code /api/v1},
 * {@code /apis}, {@code /apis/{group}/{version}} and {@code /version}. Knows the built-ins (configmaps, secrets,
 * pods, namespaces) and every resource a script names.
 */
final class Discovery {

    /** One resource as discovery lists it. */
    record Resource(String groupVersion, String plural, String kind, boolean namespaced) {

        String group() {
            int slash = groupVersion.indexOf('/');
            return slash < 0 ? "" : groupVersion.substring(0, slash);
        }
    }

    private static final Pattern COLLECTION = Pattern.compile(
            "^/(?:api/(?<coreVersion>[^/]+)|apis/(?<group>[^/]+)/(?<version>[^/]+))(?<ns>/namespaces/[^/]+)?/(?<plural>[^/]+)$");

    private final Map<String, Map<String, Resource>> byGroupVersion = new TreeMap<>();

    Discovery() {
        add(new Resource("v1", "configmaps", "ConfigMap", true));
        add(new Resource("v1", "secrets", "Secret", true));
        add(new Resource("v1", "pods", "Pod", true));
        add(new Resource("v1", "namespaces", "Namespace", false));
    }

    synchronized void add(Resource resource) {
        byGroupVersion.computeIfAbsent(resource.groupVersion(), gv -> new TreeMap<>()).put(resource.plural(), resource);
    }

    /** Registers the resource behind a collection path unless known; its kind is guessed from the plural. */
    synchronized void learn(String path) {
        Matcher m = COLLECTION.matcher(path);
        if (!m.matches()) {
            return;
        }
        String groupVersion = m.group("coreVersion") != null ? m.group("coreVersion")
                : m.group("group") + "/" + m.group("version");
        String plural = m.group("plural");
        if (byGroupVersion.getOrDefault(groupVersion, Map.of()).containsKey(plural)) {
            return;
        }
        add(new Resource(groupVersion, plural, guessKind(plural), true));
    }

    /** The resource a collection path lists, if known. */
    synchronized Optional<Resource> resourceAt(String path) {
        Matcher m = COLLECTION.matcher(path);
        if (!m.matches()) {
            return Optional.empty();
        }
        String groupVersion = m.group("coreVersion") != null ? m.group("coreVersion")
                : m.group("group") + "/" + m.group("version");
        return Optional.ofNullable(byGroupVersion.getOrDefault(groupVersion, Map.of()).get(m.group("plural")));
    }

    /** The discovery document at {@code path}, or empty when {@code path} is not a discovery path. */
    synchronized Optional<String> document(String path, String serverAddress) {
        if (path.equals("/version")) {
            return Optional.of("{\"major\":\"1\",\"minor\":\"33\",\"gitVersion\":\"v1.33.0\","
                    + "\"gitCommit\":\"0000000000000000000000000000000000000000\",\"gitTreeState\":\"clean\","
                    + "\"buildDate\":\"2026-01-01T00:00:00Z\",\"goVersion\":\"go1.24.0\",\"compiler\":\"gc\","
                    + "\"platform\":\"linux/amd64\"}");
        }
        if (path.equals("/api")) {
            JsonObject versions = new JsonObject();
            versions.addProperty("kind", "APIVersions");
            versions.add("versions", array("v1"));
            JsonObject cidr = new JsonObject();
            cidr.addProperty("clientCIDR", "0.0.0.0/0");
            cidr.addProperty("serverAddress", serverAddress);
            JsonArray cidrs = new JsonArray();
            cidrs.add(cidr);
            versions.add("serverAddressByClientCIDRs", cidrs);
            return Optional.of(versions.toString());
        }
        if (path.equals("/apis")) {
            return Optional.of(groupList());
        }
        String groupVersion = path.startsWith("/api/") ? path.substring(5)
                : path.startsWith("/apis/") ? path.substring(6) : null;
        if (groupVersion == null || groupVersion.chars().filter(c -> c == '/').count() > 1) {
            return Optional.empty();
        }
        Map<String, Resource> resources = byGroupVersion.get(groupVersion);
        if (resources == null || path.startsWith("/api/") == groupVersion.contains("/")) {
            return Optional.empty();
        }
        return Optional.of(resourceList(groupVersion, resources));
    }

    private String groupList() {
        Map<String, JsonArray> versionsByGroup = new TreeMap<>();
        for (String groupVersion : byGroupVersion.keySet()) {
            int slash = groupVersion.indexOf('/');
            if (slash > 0) {
                JsonObject version = new JsonObject();
                version.addProperty("groupVersion", groupVersion);
                version.addProperty("version", groupVersion.substring(slash + 1));
                versionsByGroup.computeIfAbsent(groupVersion.substring(0, slash), g -> new JsonArray()).add(version);
            }
        }
        JsonArray groups = new JsonArray();
        versionsByGroup.forEach((name, versions) -> {
            JsonObject group = new JsonObject();
            group.addProperty("name", name);
            group.add("versions", versions);
            group.add("preferredVersion", versions.get(0));
            groups.add(group);
        });
        JsonObject list = new JsonObject();
        list.addProperty("kind", "APIGroupList");
        list.addProperty("apiVersion", "v1");
        list.add("groups", groups);
        return list.toString();
    }

    private static String resourceList(String groupVersion, Map<String, Resource> resources) {
        JsonArray items = new JsonArray();
        for (Resource resource : resources.values()) {
            JsonObject item = new JsonObject();
            item.addProperty("name", resource.plural());
            item.addProperty("singularName", resource.kind().toLowerCase(Locale.ROOT));
            item.addProperty("namespaced", resource.namespaced());
            item.addProperty("kind", resource.kind());
            item.add("verbs", array("create", "delete", "deletecollection", "get", "list", "patch", "update",
                    "watch"));
            items.add(item);
        }
        JsonObject list = new JsonObject();
        list.addProperty("kind", "APIResourceList");
        list.addProperty("apiVersion", "v1");
        list.addProperty("groupVersion", groupVersion);
        list.add("resources", items);
        return list.toString();
    }

    private static JsonArray array(String... values) {
        JsonArray array = new JsonArray();
        for (String value : values) {
            array.add(value);
        }
        return array;
    }

    /** {@code widgets} → {@code Widget}, {@code policies} → {@code Policy}. */
    static String guessKind(String plural) {
        String singular = plural.endsWith("ies") ? plural.substring(0, plural.length() - 3) + "y"
                : plural.endsWith("ses") ? plural.substring(0, plural.length() - 2)
                : plural.endsWith("s") ? plural.substring(0, plural.length() - 1) : plural;
        return Character.toUpperCase(singular.charAt(0)) + singular.substring(1);
    }
}
