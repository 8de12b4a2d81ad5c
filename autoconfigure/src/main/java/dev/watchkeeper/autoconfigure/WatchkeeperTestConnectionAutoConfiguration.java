package dev.watchkeeper.autoconfigure;

import dev.watchkeeper.test.boot.KubeApiConnection;
import io.kubernetes.client.util.KubeConfig;
import java.io.IOException;
import java.io.StringReader;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * In a test annotated {@code @AutoConfigureInMemoryKubeApi} or {@code @AutoConfigureRealKubeApi} (Watchkeeper's test
 * support), the {@link KubernetesConnectionDetails} of the test's API server, from the {@link KubeApiConnection} bean
 * the annotation adds: what {@code @ServiceConnection} is to Boot's own connection details. Before
 * {@link WatchkeeperAutoConfiguration}, so it takes the place of the kubeconfig/in-cluster discovery.
 */
@AutoConfiguration(before = WatchkeeperAutoConfiguration.class)
@ConditionalOnClass(KubeApiConnection.class)
public final class WatchkeeperTestConnectionAutoConfiguration {

    @Bean
    @ConditionalOnBean(KubeApiConnection.class)
    @ConditionalOnMissingBean(KubernetesConnectionDetails.class)
    KubernetesConnectionDetails watchkeeperTestConnectionDetails(KubeApiConnection connection) throws IOException {
        return KubernetesConnectionDetails.fromKubeconfig(
                KubeConfig.loadKubeConfig(new StringReader(connection.kubeconfig())), connection.origin());
    }
}
