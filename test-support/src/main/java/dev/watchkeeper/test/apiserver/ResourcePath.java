package dev.watchkeeper.test.apiserver;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * A request path addressing objects: {@code /api/v1[/namespaces/{ns}]/{plural}[/{name}[/{subresource}]]} or the
 * same under {@code /apis/{group}/{version}}.
 *
 * @param namespace   {@code null} when the path has none
 * @param name        {@code null} for a collection
 * @param subresource {@code null} for the object itself
 */
record ResourcePath(String group, String version, String namespace, String plural, String name,
                    String subresource) {

    /** The parsed path, or empty for discovery and other non-resource paths. */
    static Optional<ResourcePath> parse(String path) {
        List<String> segments = new ArrayList<>(Arrays.stream(path.split("/")).filter(s -> !s.isEmpty()).toList());
        String group;
        int rest;
        if (segments.size() > 2 && segments.get(0).equals("api")) {
            group = "";
            rest = 2;
        } else if (segments.size() > 3 && segments.get(0).equals("apis")) {
            group = segments.get(1);
            rest = 3;
        } else {
            return Optional.empty();
        }
        String version = segments.get(rest - 1);
        List<String> tail = segments.subList(rest, segments.size());
        String namespace = null;
        if (tail.size() >= 3 && tail.get(0).equals("namespaces") && !isNamespaceSubresource(tail)) {
            namespace = tail.get(1);
            tail = tail.subList(2, tail.size());
        }
        if (tail.size() > 3) {
            return Optional.empty();
        }
        return Optional.of(new ResourcePath(group, version, namespace, tail.get(0),
                tail.size() > 1 ? tail.get(1) : null, tail.size() > 2 ? tail.get(2) : null));
    }

    private static boolean isNamespaceSubresource(List<String> tail) {
        return tail.size() == 3 && (tail.get(2).equals("status") || tail.get(2).equals("finalize"));
    }
}
