package dev.watchkeeper.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a {@link NoKubernetesConfigException} in Boot's "APPLICATION FAILED TO START" report: what was looked
 * for, and the ways to give Watchkeeper an API server. Registered in {@code META-INF/spring.factories}.
 */
class NoKubernetesConfigFailureAnalyzer extends AbstractFailureAnalyzer<NoKubernetesConfigException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, NoKubernetesConfigException cause) {
        StringBuilder description = new StringBuilder(
                "Watchkeeper found no Kubernetes API server to talk to. It looked for, in order:\n\n");
        cause.lookedAt().forEach(place -> description.append("    - ").append(place).append('\n'));
        description.append("\nWithout any, client-java would quietly use http://localhost:8080.");
        return new FailureAnalysis(description.toString(),
                "Point the KUBECONFIG environment variable at a kubeconfig file, create ~/.kube/config, run in a pod"
                        + " with a service account, or define an ApiClient bean of your own.",
                cause);
    }
}
