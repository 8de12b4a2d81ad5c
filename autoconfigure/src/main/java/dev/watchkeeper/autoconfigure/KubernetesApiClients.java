package dev.watchkeeper.autoconfigure;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.ClientBuilder;

/** Builds an {@link ApiClient} from {@link KubernetesConnectionDetails}, with client-java's {@code ClientBuilder}. */
final class KubernetesApiClients {

    private KubernetesApiClients() {
    }

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
}
