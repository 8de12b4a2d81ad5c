package dev.watchkeeper.autoconfigure;

import dev.watchkeeper.internal.backoff.TimeSource;
import dev.watchkeeper.internal.registry.WatchkeeperRegistry;
import dev.watchkeeper.internal.shard.ShardCoordinator;
import dev.watchkeeper.internal.shard.ShardingSettings;
import io.kubernetes.client.openapi.ApiClient;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import java.util.List;
import java.util.concurrent.ThreadFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * With {@code watchkeeper.sharding.enabled=true}, or {@code watchkeeper.reconcilers.<name>.sharding.enabled=true} for
 * some reconciler: the {@link ShardCoordinator} of this replica, its settings from {@code watchkeeper.sharding.*}
 * (unset ones as leader election derives them), publishing a {@link ShardingActiveSlotsChanged} event on each change
 * of its active slots; its member Leases go through a client of their own ({@link KubernetesApiClients#forLeases}).
 * The registry adds the sharded reconcilers as participants and starts it. A reconciler follows
 * sharding or leader election, not both: start-up fails when leader election is enabled and any reconciler is sharded.
 */
@AutoConfiguration(after = WatchkeeperAutoConfiguration.class)
@ConditionalOnClass({ApiClient.class, WatchkeeperRegistry.class})
@ConditionalOnBooleanProperty(name = "watchkeeper.enabled", matchIfMissing = true)
@Conditional(WatchkeeperShardingAutoConfiguration.OnSharding.class)
public final class WatchkeeperShardingAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    ShardCoordinator watchkeeperShardCoordinator(ApiClient apiClient, TimeSource time,
            WatchkeeperProperties properties, Environment environment, ApplicationEventPublisher events,
            ObjectProvider<KubernetesConnectionDetails> connection, ObjectProvider<ApiClientCustomizer> customizers) {
        if (properties.leaderElection().enabled()) {
            throw conflictWithLeaderElection(properties.sharding().enabled(),
                    ReconcilerOverrides.of(properties.reconcilers()).shardedByOwnProperty());
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
        ApiClient leases = KubernetesApiClients.forLeases(apiClient, connection.getIfAvailable(), customizers,
                environment);
        ShardCoordinator.Builder builder = ShardCoordinator.builder(leases, settings).timeSource(time);
        ThreadFactory threads = WatchkeeperThreads.of(environment);
        if (threads != null) {
            builder.threadFactory(threads);
        }
        ShardCoordinator coordinator = builder.build();
        coordinator.addListener((before, after, snapshot) -> events.publishEvent(
                new ShardingActiveSlotsChanged(before.toString(), after.toString(), snapshot)));
        return coordinator;
    }

    /** Names the property that turned sharding on, and says to choose. */
    private static WatchkeeperPropertyException conflictWithLeaderElection(boolean global, List<String> ownSharded) {
        String property = global ? "watchkeeper.sharding.enabled"
                : PropertyLayers.entry("watchkeeper.reconcilers", ownSharded.get(0)) + ".sharding.enabled";
        return WatchkeeperPropertyException.invalid(property, true, "cannot be combined with"
                + " watchkeeper.leader-election.enabled=true; choose one for each reconciler: sharding (every replica"
                + " reconciles its share of the objects) or leader election (one replica reconciles all of them),"
                + " and set the other to false");
    }

    /** Sharding is on globally or for at least one reconciler. */
    static final class OnSharding extends SpringBootCondition {

        @Override
        public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
            Environment environment = context.getEnvironment();
            if (environment.getProperty("watchkeeper.sharding.enabled", Boolean.class, false)) {
                return ConditionOutcome.match("watchkeeper.sharding.enabled is true");
            }
            List<String> sharded = ReconcilerOverrides.bind(environment).shardedByOwnProperty();
            return sharded.isEmpty()
                    ? ConditionOutcome.noMatch("sharding is enabled neither globally nor for any reconciler")
                    : ConditionOutcome.match("sharding is enabled for the reconcilers " + sharded);
        }
    }
}
