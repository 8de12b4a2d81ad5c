package dev.watchkeeper.autoconfigure;

import io.kubernetes.client.util.KubeConfig;
import io.kubernetes.client.util.credentials.Authentication;
import java.io.IOException;
import org.springframework.boot.autoconfigure.service.connection.ConnectionDetails;
import org.springframework.lang.Nullable;

/**
 * Where the Kubernetes API server is and how to reach it: what Watchkeeper builds its {@code ApiClient} from, as
 * Boot's own {@code *ConnectionDetails} are what its clients are built from. Without a bean of this type Watchkeeper
 * discovers one ({@code $KUBECONFIG}, {@code ~/.kube/config}, then the in-cluster service account); define one to
 * connect elsewhere (an embedded or test server, a secret store) without writing a kubeconfig file. The client built
 * from it still gets every {@link ApiClientCustomizer}; an {@code ApiClient} bean of the application's own replaces
 * both.
 *
 * <pre>{@code
 * @Bean
 * KubernetesConnectionDetails kubernetesConnectionDetails(InMemoryApiServer server) {
 *     return server::url; // plain HTTP, anonymous
 * }
 * }</pre>
 *
 * <p>The accessors are the ones client-java's {@code ClientBuilder} takes, so that what a kubeconfig or a pod's
 * service account configures (client certificates, exec plugins, a token file re-read as it rotates) can be said
 * here too, through {@link #getAuthentication()}.
 */
public interface KubernetesConnectionDetails extends ConnectionDetails {

    /** The API server's base URL, e.g. {@code https://10.96.0.1:443}. */
    String getServerUrl();

    /** PEM certificates of the CAs to trust for the server's certificate, or {@code null} for the JVM's. */
    @Nullable
    default byte[] getCertificateAuthority() {
        return null;
    }

    /** Whether the server's certificate is verified; {@code false} only for {@code insecure-skip-tls-verify}. */
    default boolean isVerifyingSsl() {
        return true;
    }

    /** The name to verify the server's certificate against, when not the URL's host; or {@code null}. */
    @Nullable
    default String getTlsServerName() {
        return null;
    }

    /**
     * How requests authenticate, as client-java's {@link Authentication}: {@code AccessTokenAuthentication},
     * {@code TokenFileAuthentication} (re-read as it rotates), {@code ClientCertificateAuthentication} or
     * {@code KubeconfigAuthentication}; {@code null} for anonymous requests.
     */
    @Nullable
    default Authentication getAuthentication() {
        return null;
    }

    /**
     * What a kubeconfig's current context says, read as client-java's {@code ClientBuilder.kubeconfig} reads it
     * (file references are resolved against {@link KubeConfig#setFile the file it came from}; credentials an exec
     * plugin or auth provider gives are fetched now).
     *
     * @param origin for the start-up log line, e.g. {@code "kubeconfig /home/me/.kube/config"}
     */
    static KubernetesConnectionDetails fromKubeconfig(KubeConfig config, String origin) throws IOException {
        return DiscoveredConnectionDetails.fromKubeconfig(config, origin);
    }

    /**
     * What Watchkeeper connects with when the application defines no bean of this type: {@code $KUBECONFIG},
     * {@code ~/.kube/config}, then the in-cluster service account, the first that exists. For a bean that chooses
     * its server when the application starts (under Spring AOT, which beans exist is decided at build time).
     *
     * @throws NoKubernetesConfigException when there is none, naming where it looked
     */
    static KubernetesConnectionDetails discover() throws IOException {
        return ApiClientSource.standard().connectionDetails();
    }
}
