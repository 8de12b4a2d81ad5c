package dev.watchkeeper.sample.embedded;

import dev.watchkeeper.autoconfigure.KubernetesConnectionDetails;
import dev.watchkeeper.test.apiserver.InMemoryApiServer;
import dev.watchkeeper.test.boot.KubeApiConnection;
import io.kubernetes.client.util.KubeConfig;
import java.io.IOException;
import java.io.StringReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Lazy;
import org.springframework.core.env.Environment;

/**
 * Without the {@code cluster} profile the sample talks to an in-memory API server of its own, so it runs anywhere
 * with one command; with it, to the cluster of its kubeconfig or service account. The choice is made when the
 * application starts, by the connection details bean, not by a {@code @Profile}: under Spring AOT the beans are
 * fixed at build time, and the one AOT-processed jar runs either way. The server and its kubeconfig are lazy beans,
 * made only in the embedded mode. The application reaches the embedded server through a
 * {@link KubernetesConnectionDetails} bean, which takes the place of Watchkeeper's kubeconfig/in-cluster discovery
 * (the starter still builds the {@code ApiClient}, with its customizers and user agent); a test's server (from
 * {@code @AutoConfigureInMemoryKubeApi}) replaces this one, and the connection follows it. In the {@code cluster}
 * mode a test's control plane ({@code @AutoConfigureRealKubeApi}) takes the place of the kubeconfig. A kubeconfig for
 * {@code kubectl} (not for the application) is written for whichever server it is, and deleted when the application
 * stops.
 */
@Configuration(proxyBeanMethods = false)
public class EmbeddedApiServerConfiguration {

    /** The profile that connects to a real cluster instead of the embedded server. */
    public static final String CLUSTER = "cluster";

    private static final Logger log = LoggerFactory.getLogger(EmbeddedApiServerConfiguration.class);

    @Bean(destroyMethod = "close")
    @Lazy
    @ConditionalOnMissingBean
    InMemoryApiServer embeddedApiServer() {
        InMemoryApiServer server = new InMemoryApiServer().start();
        log.info("Embedded Kubernetes API server at {}", server.url());
        return server;
    }

    @Bean(destroyMethod = "close")
    @Lazy
    EmbeddedKubeconfig embeddedKubeconfig(InMemoryApiServer server) throws IOException {
        EmbeddedKubeconfig kubeconfig = EmbeddedKubeconfig.write(server);
        log.info("Try: kubectl --kubeconfig {} get configmaps", kubeconfig.file());
        return kubeconfig;
    }

    @Bean
    KubernetesConnectionDetails sampleConnectionDetails(Environment environment,
            ObjectProvider<InMemoryApiServer> server, ObjectProvider<EmbeddedKubeconfig> kubeconfig,
            ObjectProvider<KubeApiConnection> testControlPlane) throws IOException {
        if (environment.matchesProfiles(CLUSTER)) {
            KubeApiConnection test = testControlPlane.getIfAvailable();
            return test == null ? KubernetesConnectionDetails.discover() : KubernetesConnectionDetails.fromKubeconfig(
                    KubeConfig.loadKubeConfig(new StringReader(test.kubeconfig())), test.origin());
        }
        kubeconfig.getObject(); // written now, for kubectl
        return server.getObject()::url; // plain HTTP, anonymous
    }
}
