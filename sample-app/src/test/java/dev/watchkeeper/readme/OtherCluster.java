package dev.watchkeeper.readme;

import dev.watchkeeper.autoconfigure.KubernetesConnectionDetails;
import io.kubernetes.client.util.credentials.Authentication;
import io.kubernetes.client.util.credentials.TokenFileAuthentication;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/** The connection-details snippet of docs/client.md: a cluster that no kubeconfig describes. Compiled, not started. */
@Configuration(proxyBeanMethods = false)
class OtherCluster {

    // tag::connection[]
    @Bean
    KubernetesConnectionDetails kubernetesConnectionDetails(Environment environment) throws IOException {
        String server = environment.getRequiredProperty("fleet.server");   // e.g. https://fleet.example:6443
        byte[] ca = Files.readAllBytes(Path.of("/etc/fleet/ca.crt"));
        return new KubernetesConnectionDetails() {
            @Override
            public String getServerUrl() {
                return server;
            }

            @Override
            public byte[] getCertificateAuthority() {
                return ca;
            }

            @Override
            public Authentication getAuthentication() {
                return new TokenFileAuthentication("/etc/fleet/token");   // re-read as it rotates
            }
        };
    }
    // end::connection[]
}
