package dev.watchkeeper.autoconfigure;

import io.kubernetes.client.openapi.ApiClient;

/**
 * Tunes the {@link ApiClient} Watchkeeper builds from the {@link KubernetesConnectionDetails}: timeouts, OkHttp
 * interceptors, the user agent, as Boot's {@code RestClientCustomizer} does for its clients. Every bean of this type
 * runs once, in {@code @Order} / {@code Ordered} order (unordered ones last), after Watchkeeper has set its default
 * user agent, so a customizer may replace it. An {@code ApiClient} bean of the application's own is not customized.
 * With leader election or sharding, the client of Lease traffic, built from the same connection details with a
 * connection pool of its own, is customized too: every customizer then runs once per client.
 *
 * <pre>{@code
 * @Bean
 * ApiClientCustomizer connectTimeout() {
 *     return client -> client.setHttpClient(client.getHttpClient().newBuilder()
 *             .connectTimeout(Duration.ofSeconds(5)).build());
 * }
 * }</pre>
 */
@FunctionalInterface
public interface ApiClientCustomizer {

    void customize(ApiClient client);
}
