package dev.watchkeeper.autoconfigure;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.Pair;
import io.kubernetes.client.util.ClientBuilder;
import java.net.URI;
import java.util.List;
import java.util.Map;
import okhttp3.ConnectionPool;
import okhttp3.Dispatcher;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.core.env.Environment;

/**
 * Builds Watchkeeper's {@link ApiClient}s: the one of watches, reconciles and Events, and the one of Lease traffic
 * ({@link #forLeases}), which has a connection pool and dispatcher of its own, so that renewals never queue behind
 * other requests (docs/semantics.md, "Lease traffic").
 */
final class KubernetesApiClients {

    private KubernetesApiClients() {
    }

    /** From {@code connection}, with client-java's {@code ClientBuilder}. */
    static ApiClient build(KubernetesConnectionDetails connection) {
        ClientBuilder builder = new ClientBuilder().setBasePath(connection.getServerUrl())
                .setVerifyingSsl(connection.isVerifyingSsl());
        // the builder's own defaults stand for what the details leave unset
        if (connection.getCertificateAuthority() != null) {
            builder.setCertificateAuthority(connection.getCertificateAuthority());
        }
        if (connection.getTlsServerName() != null) {
            builder.setTlsServerName(connection.getTlsServerName());
        }
        if (connection.getAuthentication() != null) {
            builder.setAuthentication(connection.getAuthentication());
        }
        return builder.build();
    }

    /** From {@code connection}, with the default user agent ({@link UserAgent}), then every customizer in order. */
    static ApiClient customized(KubernetesConnectionDetails connection, ObjectProvider<ApiClientCustomizer> customizers,
            Environment environment) {
        ApiClient client = build(connection);
        client.setUserAgent(UserAgent.of(environment));
        customizers.orderedStream().forEach(customizer -> customizer.customize(client));
        return client;
    }

    /**
     * The client of the leader elector or the sharding member Leases: a second client to the same server, with an
     * OkHttp connection pool and dispatcher of its own. With connection details it is built from them as
     * Watchkeeper's client is, customizers included, so their timeouts, TLS settings and interceptors apply to Lease
     * traffic too. Without (the application brought its own {@code ApiClient}), it copies that client's OkHttp
     * settings and asks it for the credentials of each request, so a token it refreshes is the one sent.
     */
    static ApiClient forLeases(ApiClient shared, KubernetesConnectionDetails connection,
            ObjectProvider<ApiClientCustomizer> customizers, Environment environment) {
        if (connection != null) {
            return customized(connection, customizers, environment);
        }
        ApiClient leases = new SharedCredentials(shared);
        leases.setUserAgent(UserAgent.of(environment));
        return leases;
    }

    /** A client with its own connection pool and dispatcher that authenticates its requests as {@code shared} does. */
    private static final class SharedCredentials extends ApiClient {

        private final ApiClient shared;

        SharedCredentials(ApiClient shared) {
            super(shared.getHttpClient().newBuilder().connectionPool(new ConnectionPool()).dispatcher(new Dispatcher())
                    .build());
            this.shared = shared;
            setBasePath(shared.getBasePath());
            setJSON(shared.getJSON());
        }

        @Override
        public void updateParamsForAuth(String[] authNames, List<Pair> queryParams, Map<String, String> headerParams,
                Map<String, String> cookieParams, String payload, String method, URI uri) throws ApiException {
            shared.updateParamsForAuth(authNames, queryParams, headerParams, cookieParams, payload, method, uri);
        }
    }
}
