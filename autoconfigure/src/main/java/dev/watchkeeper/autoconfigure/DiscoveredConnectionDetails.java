package dev.watchkeeper.autoconfigure;

import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.KubeConfig;
import io.kubernetes.client.util.credentials.Authentication;
import java.io.IOException;

/**
 * Connection details read by client-java's own {@code ClientBuilder} from a kubeconfig or a pod's service account,
 * so Watchkeeper connects exactly as {@code ClientBuilder.standard()} would.
 *
 * @param origin where they were found, for the start-up log line
 */
record DiscoveredConnectionDetails(String serverUrl, byte[] certificateAuthority, boolean verifyingSsl,
        String tlsServerName, Authentication authentication, String origin) implements KubernetesConnectionDetails {

    static DiscoveredConnectionDetails fromKubeconfig(KubeConfig config, String origin) throws IOException {
        // the builder keeps the CA to itself: read it as it does
        byte[] ca = config.getDataOrFileRelative(config.getCertificateAuthorityData(),
                config.getCertificateAuthorityFile());
        return of(ClientBuilder.kubeconfig(config), ca, origin);
    }

    static DiscoveredConnectionDetails of(ClientBuilder builder, byte[] certificateAuthority, String origin) {
        return new DiscoveredConnectionDetails(builder.getBasePath(), certificateAuthority, builder.isVerifyingSsl(),
                builder.getTlsServerName(), builder.getAuthentication(), origin);
    }

    @Override
    public String getServerUrl() {
        return serverUrl;
    }

    @Override
    public byte[] getCertificateAuthority() {
        return certificateAuthority;
    }

    @Override
    public boolean isVerifyingSsl() {
        return verifyingSsl;
    }

    @Override
    public String getTlsServerName() {
        return tlsServerName;
    }

    @Override
    public Authentication getAuthentication() {
        return authentication;
    }

    @Override
    public String toString() { // no credentials in logs
        return origin;
    }
}
