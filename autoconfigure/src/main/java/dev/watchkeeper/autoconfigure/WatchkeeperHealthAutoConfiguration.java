package dev.watchkeeper.autoconfigure;

import dev.watchkeeper.autoconfigure.health.WatchkeeperHealthIndicator;
import dev.watchkeeper.autoconfigure.health.WatchkeeperReadinessIndicator;
import dev.watchkeeper.internal.leader.LeaderElector;
import dev.watchkeeper.internal.registry.WatchkeeperRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Health indicator {@code watchkeeper} (every watcher synced and watching; the webhook server serving with a
 * certificate that has not expired), and the readiness gate
 * {@code watchkeeperReadiness}, a member of the {@code readiness} group by default (see
 * {@link dev.watchkeeper.autoconfigure.health.ReadinessGroupDefaults}), so the application is not ready until every
 * watcher has completed its first sync ({@code watchkeeper.readiness.wait-for-sync}, default true).
 */
@AutoConfiguration(after = WatchkeeperAutoConfiguration.class)
@ConditionalOnClass(HealthIndicator.class)
@ConditionalOnBean(WatchkeeperRegistry.class)
@ConditionalOnEnabledHealthIndicator("watchkeeper")
public final class WatchkeeperHealthAutoConfiguration {

    static final String READINESS_CONTRIBUTOR = "watchkeeperReadiness";

    @Bean
    @ConditionalOnMissingBean(name = "watchkeeperHealthIndicator")
    WatchkeeperHealthIndicator watchkeeperHealthIndicator(WatchkeeperRegistry registry,
            ObjectProvider<LeaderElector> elector, ObjectProvider<WatchkeeperWebhooks> webhooks) {
        return new WatchkeeperHealthIndicator(registry, elector.getIfAvailable(),
                () -> webhooks.getIfAvailable() == null ? null : webhooks.getIfAvailable().service().orElse(null));
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnBooleanProperty(name = "watchkeeper.readiness.wait-for-sync", matchIfMissing = true)
    static final class Readiness {

        @Bean(READINESS_CONTRIBUTOR + "HealthIndicator")
        @ConditionalOnMissingBean(name = READINESS_CONTRIBUTOR + "HealthIndicator")
        WatchkeeperReadinessIndicator watchkeeperReadinessHealthIndicator(WatchkeeperRegistry registry) {
            return new WatchkeeperReadinessIndicator(registry);
        }
    }
}
