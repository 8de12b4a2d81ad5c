package dev.watchkeeper.autoconfigure;

import dev.watchkeeper.autoconfigure.endpoint.WatchkeeperEndpoint;
import dev.watchkeeper.internal.leader.LeaderElector;
import dev.watchkeeper.internal.registry.WatchkeeperRegistry;
import dev.watchkeeper.internal.shard.ShardCoordinator;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/** The {@code watchkeeper} actuator endpoint, when actuator is present and the endpoint is exposed. */
@AutoConfiguration(after = {WatchkeeperAutoConfiguration.class, WatchkeeperShardingAutoConfiguration.class,
        WatchkeeperWebhookAutoConfiguration.class})
@ConditionalOnClass(Endpoint.class)
@ConditionalOnBean(WatchkeeperRegistry.class)
@ConditionalOnAvailableEndpoint(WatchkeeperEndpoint.class)
public final class WatchkeeperEndpointAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    WatchkeeperEndpoint watchkeeperEndpoint(WatchkeeperRegistry registry, ObjectProvider<LeaderElector> elector,
            ObjectProvider<ShardCoordinator> coordinator, ObjectProvider<WatchkeeperWebhooks> webhooks) {
        return new WatchkeeperEndpoint(registry, elector.getIfAvailable(), coordinator.getIfAvailable(),
                () -> webhooks.getIfAvailable() == null ? null : webhooks.getIfAvailable().service().orElse(null));
    }
}
