package dev.watchkeeper.test.stub;

import java.util.Map;
import java.util.Objects;

/**
 * One request the stub received, in arrival order: method, path and the decoded query parameters (the last value
 * wins when a parameter repeats).
 *
 * <pre>{@code
 * RecordedRequest watch = stub.watchRequests(path).get(0);
 * assertThat(watch.resourceVersion()).isEqualTo("3");
 * assertThat(watch.allowWatchBookmarks()).isTrue();
 * }</pre>
 *
 * @param sequence 0 for the first request since start or reset, then 1, 2, …
 * @param method   e.g. {@code GET}
 * @param path     without the query, e.g. {@code /api/v1/namespaces/default/configmaps}
 * @param query    decoded query parameters
 */
public record RecordedRequest(int sequence, String method, String path, Map<String, String> query) {

    public RecordedRequest {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(path, "path");
        query = Map.copyOf(query);
    }

    /** The parameter's value, or {@code null} when absent. */
    public String param(String name) {
        return query.get(name);
    }

    /** {@code watch=true} (client-java may send {@code watch=false} on lists). */
    public boolean isWatch() {
        return "true".equals(param("watch"));
    }

    /** A GET that is not a watch. */
    public boolean isList() {
        return "GET".equals(method) && !isWatch();
    }

    public Integer limit() {
        return integer("limit");
    }

    public String continueToken() {
        return param("continue");
    }

    public String resourceVersion() {
        return param("resourceVersion");
    }

    public String resourceVersionMatch() {
        return param("resourceVersionMatch");
    }

    public boolean sendInitialEvents() {
        return "true".equals(param("sendInitialEvents"));
    }

    public boolean allowWatchBookmarks() {
        return "true".equals(param("allowWatchBookmarks"));
    }

    public Integer timeoutSeconds() {
        return integer("timeoutSeconds");
    }

    public String labelSelector() {
        return param("labelSelector");
    }

    public String fieldSelector() {
        return param("fieldSelector");
    }

    private Integer integer(String name) {
        String value = param(name);
        return value == null ? null : Integer.valueOf(value);
    }

    /** E.g. {@code WATCH /api/v1/namespaces/default/configmaps?resourceVersion=3&watch=true}. */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder(isWatch() ? "WATCH" : isList() ? "LIST" : method).append(' ')
                .append(path);
        char separator = '?';
        for (Map.Entry<String, String> entry : new java.util.TreeMap<>(query).entrySet()) {
            text.append(separator).append(entry.getKey()).append('=').append(entry.getValue());
            separator = '&';
        }
        return text.toString();
    }
}
