package dev.watchkeeper.autoconfigure;

import dev.watchkeeper.backoff.TimeSource;
import dev.watchkeeper.internal.registry.WatchkeeperRegistry;
import io.kubernetes.client.openapi.ApiClient;
import org.springframework.boot.autoconfigure.AbstractDependsOnBeanFactoryPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.context.annotation.Bean;

/**
 * With {@code watchkeeper.crds.apply=true}: the reconcilers' CRDs applied and Established before the
 * {@link WatchkeeperRegistry} is created (which starts the watchers), as Boot runs Flyway before JPA: the registry
 * bean is made to depend on the bean that applies them.
 */
@AutoConfiguration(after = WatchkeeperAutoConfiguration.class)
@ConditionalOnBooleanProperty("watchkeeper.crds.apply")
@ConditionalOnBean(WatchkeeperRegistry.class)
public final class WatchkeeperCrdsAutoConfiguration {

    static final String BEAN = "watchkeeperCustomResourceDefinitions";

    @Bean(BEAN)
    StartUpCustomResourceDefinitions watchkeeperCustomResourceDefinitions(ApiClient client, TimeSource time,
            ConfigurableListableBeanFactory beans) throws InterruptedException {
        StartUpCustomResourceDefinitions crds = new StartUpCustomResourceDefinitions(client, time);
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
