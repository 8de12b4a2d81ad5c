package dev.watchkeeper.autoconfigure;

/**
 * A Kubernetes API path as a template of low cardinality, for the {@code uri} tag: the namespace and the object's
 * name replaced, e.g. {@code /api/v1/namespaces/{namespace}/configmaps/{name}} or
 * {@code /apis/apps/v1/deployments}; subresources kept ({@code .../{name}/status}). Paths outside {@code /api} and
 * {@code /apis} (discovery's {@code /version}, {@code /openapi/v3}) are kept as they are.
 */
final class ApiPaths {

    private ApiPaths() {
    }

    static String template(String path) {
        String[] segments = path.split("/", -1);
        int resource; // the index of the resource segment: /api/v1/<resource>, /apis/<group>/<version>/<resource>
        if (segments.length > 1 && segments[1].equals("api")) {
            resource = 3;
        } else if (segments.length > 1 && segments[1].equals("apis")) {
            resource = 4;
        } else {
            return path;
        }
        if (segments.length > resource + 2 && segments[resource].equals("namespaces")) {
            segments[resource + 1] = "{namespace}";
            resource += 2;
        }
        if (segments.length > resource + 1 && !segments[resource + 1].isEmpty()) {
            segments[resource + 1] = "{name}";
        }
        return String.join("/", segments);
    }
}
