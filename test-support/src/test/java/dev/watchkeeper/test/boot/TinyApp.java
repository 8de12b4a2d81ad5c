package dev.watchkeeper.test.boot;

import dev.watchkeeper.annotation.Reconciler;
import dev.watchkeeper.internal.annotation.ReconcilerAnnotationBeanPostProcessor;
import dev.watchkeeper.internal.registry.RegistryServices;
import dev.watchkeeper.internal.registry.WatchkeeperRegistry;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.KubeConfig;
import java.io.IOException;
import java.io.StringReader;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * A tiny application for the annotation tests. It wires Watchkeeper's runtime as the auto-configuration does
 * (an {@code ApiClient} only when none exists, from the test's {@link KubeApiConnection}, else one that reaches
 * nothing) without depending on the autoconfigure module, which itself tests with this module.
 */
@SpringBootApplication
public class TinyApp {

    @Bean
    @ConditionalOnMissingBean
    ApiClient apiClient(ObjectProvider<KubeApiConnection> connection) throws IOException {
        KubeApiConnection test = connection.getIfAvailable();
        return test == null ? new ClientBuilder().setBasePath("http://127.0.0.1:9").build()
                : ClientBuilder.kubeconfig(KubeConfig.loadKubeConfig(new StringReader(test.kubeconfig()))).build();
    }

    @Bean
    WatchkeeperRegistry watchkeeperRegistry(ApiClient apiClient) {
        return new WatchkeeperRegistry(RegistryServices.of(apiClient));
    }

    @Bean
    static ReconcilerAnnotationBeanPostProcessor reconcilerAnnotationBeanPostProcessor() {
        return new ReconcilerAnnotationBeanPostProcessor();
    }

    @Bean
    SeenConfigMaps seenConfigMaps() {
        return new SeenConfigMaps();
    }

    /** Records the name of every ConfigMap of namespace {@code default} it reconciles. */
    public static class SeenConfigMaps {

        private final Set<String> names = ConcurrentHashMap.newKeySet();

        @Reconciler(name = "seen-configmaps", namespace = "default")
        void reconcile(V1ConfigMap configMap) {
            names.add(configMap.getMetadata().getName());
        }

        public Set<String> names() {
            return names;
        }
    }
}
