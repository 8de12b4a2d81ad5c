package dev.watchkeeper.internal.api;

import io.kubernetes.client.openapi.ApiException;

/**
 * A failed API call that says what it was: the RBAC verb, the resource ({@code configmaps},
 * {@code configmapgenerators.samples.watchkeeper.dev}), the subresource ({@code status}) and the object
 * ({@code namespace/name}). Still the server's {@link ApiException} (code, headers, body), so a reconciler that
 * checks {@code getCode()} works as before; {@link ApiErrors#describe} puts it in one line:
 * {@code update configmaps/default/a/status: HTTP 403 Forbidden: … — grant update on configmaps/status}.
 */
public final class FailedCall extends ApiException {

    private static final long serialVersionUID = 1L;

    private final String verb;
    private final String resource;
    private final String subresource;
    private final String object;

    private FailedCall(String verb, String resource, String subresource, String object, ApiException failed) {
        super(failed.getMessage(), failed.getCause(), failed.getCode(), failed.getResponseHeaders(),
                failed.getResponseBody());
        this.verb = verb;
        this.resource = resource;
        this.subresource = subresource;
        this.object = object;
        setStackTrace(failed.getStackTrace());
    }

    /**
     * {@code failed} as a failure to {@code verb} {@code object} of {@code resource}.
     *
     * @param verb     the RBAC verb: {@code get}, {@code create}, {@code update}, {@code patch}
     * @param resource    the resource with its group: {@code configmaps}, {@code events.events.k8s.io}
     * @param subresource {@code status}, or {@code null}
     * @param object      {@code namespace/name}, {@code name} when cluster-scoped, {@code null} for a collection
     */
    public static FailedCall of(String verb, String resource, String subresource, String object,
            ApiException failed) {
        return new FailedCall(verb, resource, subresource, object, failed);
    }

    public String verb() {
        return verb;
    }

    public String resource() {
        return resource;
    }

    public String object() {
        return object;
    }

    /** {@code update configmaps/default/a/status}: what was called, as the start of a line. */
    String call() {
        return verb + " " + resource + (object == null ? "" : "/" + object)
                + (subresource == null ? "" : "/" + subresource);
    }

    /** What RBAC must allow: {@code grant update on configmaps/status}. */
    String grant() {
        return "grant " + verb + " on " + resource + (subresource == null ? "" : "/" + subresource);
    }
}
