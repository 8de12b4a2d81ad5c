package dev.watchkeeper.test.apiserver;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What server-side apply needs of a resource's schema: how each list merges and which maps are atomic. A documented
 * subset of the real schemas; every other list is atomic (replaced whole, owned as one field) and every other map is
 * granular, which is also how the real server treats a custom resource whose schema preserves unknown fields.
 *
 * <ul>
 *   <li>every resource: {@code metadata.finalizers} is a set, {@code metadata.ownerReferences} is keyed by
 *       {@code uid} (each reference atomic);</li>
 *   <li>pod specs ({@code Pod .spec}, {@code PodTemplate .template.spec}, {@code Deployment .spec.template.spec}):
 *       {@code containers}, {@code initContainers}, {@code ephemeralContainers} and {@code volumes} keyed by
 *       {@code name}; in a container {@code ports} by {@code containerPort} and {@code protocol}, {@code env} by
 *       {@code name}, {@code volumeMounts} by {@code mountPath};</li>
 *   <li>{@code Service .spec.ports} keyed by {@code port} and {@code protocol}; {@code Pod .status.conditions} by
 *       {@code type}; {@code Deployment .spec.selector} is an atomic map.</li>
 * </ul>
 */
final class FieldSchema {

    /** How a list merges: atomic, a set of scalars, or a map keyed by some fields of its items. */
    record ListType(Kind kind, List<String> keys, boolean atomicItems) {

        static final ListType ATOMIC = new ListType(Kind.ATOMIC, List.of(), false);
        static final ListType SET = new ListType(Kind.SET, List.of(), false);

        static ListType keyed(String... keys) {
            return new ListType(Kind.MAP, List.of(keys), false);
        }

        enum Kind { ATOMIC, SET, MAP }
    }

    private static final Map<String, ListType> COMMON = Map.of(
            "metadata.finalizers", ListType.SET,
            "metadata.ownerReferences", new ListType(ListType.Kind.MAP, List.of("uid"), true));

    private static final Map<String, ListType> POD_SPEC = Map.of(
            "containers", ListType.keyed("name"),
            "initContainers", ListType.keyed("name"),
            "ephemeralContainers", ListType.keyed("name"),
            "volumes", ListType.keyed("name"),
            "containers.ports", ListType.keyed("containerPort", "protocol"),
            "initContainers.ports", ListType.keyed("containerPort", "protocol"),
            "containers.env", ListType.keyed("name"),
            "initContainers.env", ListType.keyed("name"),
            "containers.volumeMounts", ListType.keyed("mountPath"),
            "initContainers.volumeMounts", ListType.keyed("mountPath"));

    private final String podSpec;
    private final Map<String, ListType> own;
    private final Set<String> atomicMaps;

    private FieldSchema(String podSpec, Map<String, ListType> own, Set<String> atomicMaps) {
        this.podSpec = podSpec;
        this.own = own;
        this.atomicMaps = atomicMaps;
    }

    /** The schema of a resource's objects. */
    static FieldSchema of(ApiResource resource) {
        String core = resource.group().isEmpty() ? resource.plural() : "";
        return switch (resource.group().equals("apps") ? "apps." + resource.plural() : core) {
            case "pods" -> new FieldSchema("spec.", Map.of("status.conditions", ListType.keyed("type")), Set.of());
            case "podtemplates" -> new FieldSchema("template.spec.", Map.of(), Set.of());
            case "services" -> new FieldSchema(null, Map.of("spec.ports", ListType.keyed("port", "protocol")),
                    Set.of());
            case "apps.deployments" -> new FieldSchema("spec.template.spec.", Map.of(), Set.of("spec.selector"));
            default -> new FieldSchema(null, Map.of(), Set.of());
        };
    }

    /** The type of the list at {@code path} (field names joined by dots, list items left out). */
    ListType list(String path) {
        ListType type = COMMON.get(path);
        if (type == null) {
            type = own.get(path);
        }
        if (type == null && podSpec != null && path.startsWith(podSpec)) {
            type = POD_SPEC.get(path.substring(podSpec.length()));
        }
        return type == null ? ListType.ATOMIC : type;
    }

    /** Whether the map at {@code path} is replaced and owned as a whole. */
    boolean atomicMap(String path) {
        return atomicMaps.contains(path);
    }
}
