package dev.watchkeeper.test.boot;

/**
 * How the application under test reaches the test's API server: a bean that
 * {@link AutoConfigureInMemoryKubeApi @AutoConfigureInMemoryKubeApi},
 * {@link AutoConfigureKubeApiStub @AutoConfigureKubeApiStub} and
 * {@link AutoConfigureRealKubeApi @AutoConfigureRealKubeApi} add beside the server.
 * Watchkeeper's auto-configuration turns it into its {@code KubernetesConnectionDetails}, as Boot's
 * {@code @ServiceConnection} turns a container into connection details, so the application's {@code ApiClient} is
 * the one the starter builds (with its customizers and user agent) and no kubeconfig file or property is involved.
 *
 * @param kubeconfig a kubeconfig (YAML) whose current context reaches the server
 * @param origin     which server, for the application's start-up log line
 */
public record KubeApiConnection(String kubeconfig, String origin) {
}
