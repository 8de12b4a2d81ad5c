package dev.watchkeeper.sample.embedded;

import dev.watchkeeper.test.apiserver.InMemoryApiServer;
import dev.watchkeeper.autoconfigure.KubernetesConnectionDetails;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;

/**
 * Without the {@code cluster} profile the sample talks to an in-memory API server of its own, so it runs anywhere
 * with one command. The application connects to it through a {@link KubernetesConnectionDetails} bean, which takes
 * the place of Watchkeeper's kubeconfig/in-cluster discovery (the starter still builds the {@code ApiClient}, with
 * its customizers and user agent); a test's server (from {@code @AutoConfigureInMemoryKubeApi}) replaces this one,
 * and the connection follows it. A kubeconfig for {@code kubectl} (not for the application) is written for whichever
 * server it is, and deleted when the application stops.
 */
@Configuration(proxyBeanMethods = false)
@Profile("!cluster")
public class EmbeddedApiServerConfiguration {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedApiServerConfiguration.class);

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    InMemoryApiServer embeddedApiServer() {
        InMemoryApiServer server = new InMemoryApiServer().start();
        log.info("Embedded Kubernetes API server at {}", server.url());
        return server;
    }

    @Bean(destroyMethod = "close")
    EmbeddedKubeconfig embeddedKubeconfig(InMemoryApiServer server) throws IOException {
        EmbeddedKubeconfig kubeconfig = EmbeddedKubeconfig.write(server);
        log.info("Try: kubectl --kubeconfig {} get configmaps", kubeconfig.file());
        return kubeconfig;
    }

    @Bean
    KubernetesConnectionDetails embeddedConnectionDetails(InMemoryApiServer server) {
        return server::url; // plain HTTP, anonymous
    }
}
