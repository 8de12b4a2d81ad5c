package dev.watchkeeper.autoconfigure;

import dev.watchkeeper.internal.backoff.TimeSource;
import dev.watchkeeper.internal.registry.WatchkeeperRegistry;
import io.kubernetes.client.openapi.ApiClient;
import org.springframework.boot.autoconfigure.AbstractDependsOnBeanFactoryPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * With {@code watchkeeper.crds.apply=true}: the reconcilers' CRDs applied and Established before the
 * {@link WatchkeeperRegistry} is created (which starts the watchers), as Boot runs Flyway before JPA: the registry
 * bean is made to depend on the bean that applies them. A CRD with several versions calls the conversion webhook
 * at {@code watchkeeper.webhooks.url} or {@code watchkeeper.webhooks.service.*}.
 */
@AutoConfiguration(after = WatchkeeperAutoConfiguration.class)
@ConditionalOnBooleanProperty("watchkeeper.crds.apply")
@ConditionalOnBean(WatchkeeperRegistry.class)
public final class WatchkeeperCrdsAutoConfiguration {

    static final String BEAN = "watchkeeperCustomResourceDefinitions";

    @Bean(BEAN)
    StartUpCustomResourceDefinitions watchkeeperCustomResourceDefinitions(ApiClient client, TimeSource time,
            ConfigurableListableBeanFactory beans, Environment environment) throws InterruptedException {
        // bound here too: a multi-version CRD names the conversion webhook even when another application serves it
        WebhookProperties webhooks = Binder.get(environment).bindOrCreate("watchkeeper.webhooks",
                WebhookProperties.class);
        StartUpCustomResourceDefinitions crds = new StartUpCustomResourceDefinitions(client, time,
                WatchkeeperWebhooks.clientConfig(webhooks));
        crds.apply(StartUpCustomResourceDefinitions.reconciledTypes(beans));
        return crds;
    }

    @Bean
    static RegistryDependsOnCrds watchkeeperRegistryDependsOnCrds() {
        return new RegistryDependsOnCrds();
    }

    /** Makes every {@link WatchkeeperRegistry} bean wait for the CRDs. */
    static final class RegistryDependsOnCrds extends AbstractDependsOnBeanFactoryPostProcessor {

        RegistryDependsOnCrds() {
            super(WatchkeeperRegistry.class, BEAN);
        }
    }
}
