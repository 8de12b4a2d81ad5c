package dev.watchkeeper.test.apiserver;

/**
 * One request the server received, recorded before any fault was applied.
 *
 * <pre>{@code
 * long watches = server.requests("configmaps").stream().filter(ServedRequest::isWatch).count();
 * }</pre>
 *
 * @param method e.g. {@code GET}
 * @param path   e.g. {@code /api/v1/namespaces/default/configmaps}
 * @param query  the decoded query string, {@code ""} when absent
 * @param plural the resource plural the path addresses, or {@code null} (discovery, version)
 */
public record ServedRequest(String method, String path, String query, String plural) {

    /** Whether this was a watch ({@code watch=true} or {@code watch=1}). */
    public boolean isWatch() {
        return ("&" + query + "&").matches(".*&watch=(true|1)&.*");
    }

    @Override
    public String toString() {
        return method + " " + path + (query.isEmpty() ? "" : "?" + query);
    }
}
