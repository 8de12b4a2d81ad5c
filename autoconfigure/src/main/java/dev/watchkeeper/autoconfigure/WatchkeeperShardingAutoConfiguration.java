package dev.watchkeeper.autoconfigure;

import dev.watchkeeper.backoff.TimeSource;
import dev.watchkeeper.internal.registry.WatchkeeperRegistry;
import dev.watchkeeper.internal.shard.ShardCoordinator;
import dev.watchkeeper.shard.ShardingSettings;
import io.kubernetes.client.openapi.ApiClient;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * With {@code watchkeeper.sharding.enabled=true}: the {@link ShardCoordinator} of this replica, its settings from
 * {@code watchkeeper.sharding.*} (unset ones as leader election derives them), publishing a
 * {@link ShardingActiveSlotsChanged} event on each change of its active slots. Whoever drives the sharded reconcilers
 * adds them as participants and starts it. Sharding and leader election exclude each other: start-up fails when both
 * are enabled.
 */
@AutoConfiguration(after = WatchkeeperAutoConfiguration.class)
@ConditionalOnClass({ApiClient.class, WatchkeeperRegistry.class})
@ConditionalOnBooleanProperty(name = "watchkeeper.enabled", matchIfMissing = true)
@ConditionalOnBooleanProperty("watchkeeper.sharding.enabled")
public final class WatchkeeperShardingAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    ShardCoordinator watchkeeperShardCoordinator(ApiClient apiClient, TimeSource time,
            WatchkeeperProperties properties, Environment environment, ApplicationEventPublisher events) {
        if (properties.leaderElection().enabled()) {
            throw WatchkeeperPropertyException.invalid("watchkeeper.sharding.enabled", true,
                    "cannot be combined with watchkeeper.leader-election.enabled=true; choose one: sharding (every"
                            + " replica reconciles its share of the objects) or leader election (one replica"
                            + " reconciles all of them), and set the other to false");
        }
        WatchkeeperProperties.Sharding sharding = properties.sharding();
        ShardingSettings settings = PropertyLayers.of("watchkeeper.sharding", sharding)
                .build(() -> new ShardingSettings(
                        sharding.group() != null ? sharding.group()
                                : LeaderElectionDefaults.applicationName(environment),
                        sharding.namespace() != null ? sharding.namespace()
                                : LeaderElectionDefaults.leaseNamespace(LeaderElectionDefaults.NAMESPACE_FILE),
                        sharding.identity() != null ? sharding.identity() : LeaderElectionDefaults.identity(),
                        sharding.leaseDuration(), sharding.renewDeadline(), sharding.retryPeriod()));
        ShardCoordinator coordinator = ShardCoordinator.builder(apiClient, settings).timeSource(time).build();
        coordinator.addListener((before, after, snapshot) -> events.publishEvent(
                new ShardingActiveSlotsChanged(before.toString(), after.toString(), snapshot)));
        return coordinator;
    }
}
