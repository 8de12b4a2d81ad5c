package dev.watchkeeper.sample.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import dev.watchkeeper.autoconfigure.KubernetesConnectionDetails;
import dev.watchkeeper.autoconfigure.WatchkeeperAutoConfiguration;
import dev.watchkeeper.test.apiserver.InMemoryApiServer;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.KubeConfig;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

class EmbeddedApiServerConfigurationTest {

    @Test
    void theKubeconfigPointsAtTheEmbeddedServerAndItsDirectoryIsGoneWhenTheApplicationStops() {
        AtomicReference<Path> kubeconfig = new AtomicReference<>();

        new ApplicationContextRunner().withUserConfiguration(EmbeddedApiServerConfiguration.class).run(context -> {
            kubeconfig.set(context.getBean(EmbeddedKubeconfig.class).file());
            assertThat(kubeconfig.get().getParent().getFileName().toString()).startsWith("watchkeeper-sample-");
            try (Reader reader = Files.newBufferedReader(kubeconfig.get())) {
                assertThat(KubeConfig.loadKubeConfig(reader).getServer())
                        .isEqualTo(context.getBean(InMemoryApiServer.class).url());
            }
        });

        assertThat(kubeconfig.get().getParent()).doesNotExist();
    }

    @Test
    void theApplicationConnectsToTheEmbeddedServerThroughConnectionDetails() {
        new ApplicationContextRunner().withUserConfiguration(EmbeddedApiServerConfiguration.class)
                .withConfiguration(AutoConfigurations.of(WatchkeeperAutoConfiguration.class))
                .run(context -> {
                    String url = context.getBean(InMemoryApiServer.class).url();
                    assertThat(context.getBean(KubernetesConnectionDetails.class).getServerUrl()).isEqualTo(url);
                    assertThat(context.getBean(ApiClient.class).getBasePath()).isEqualTo(url);
                });
    }
}
