package dev.watchkeeper.autoconfigure;

import java.util.List;

/**
 * No kubeconfig and no in-cluster service account: client-java would talk to {@code http://localhost:8080}, which
 * is almost never what was meant, so start-up fails instead ({@link NoKubernetesConfigFailureAnalyzer} explains).
 */
class NoKubernetesConfigException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    private final List<String> lookedAt;

    NoKubernetesConfigException(List<String> lookedAt) {
        super("No Kubernetes configuration found (looked at " + String.join(", ", lookedAt)
                + "); the client would fall back to http://localhost:8080");
        this.lookedAt = List.copyOf(lookedAt);
    }

    /** What was looked for, in order, and why each did not do. */
    List<String> lookedAt() {
        return lookedAt;
    }
}
