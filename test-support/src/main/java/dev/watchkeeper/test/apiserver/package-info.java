/**
 * {@link dev.watchkeeper.test.apiserver.InMemoryApiServer}: a stateful fake Kubernetes API server speaking real
 * HTTP/1.1, for tests and demos without a cluster.
 *
 * <pre>{@code
 * try (InMemoryApiServer server = new InMemoryApiServer().start()) {
 *     CoreV1Api core = new CoreV1Api(server.apiClient());
 *     core.createNamespacedConfigMap("default", configMap).execute();
 *     server.throttle(3, Duration.ofSeconds(1));   // the next three requests get 429
 * }
 * }</pre>
 */
package dev.watchkeeper.test.apiserver;
