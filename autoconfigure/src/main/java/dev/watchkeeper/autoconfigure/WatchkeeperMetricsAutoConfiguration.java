package dev.watchkeeper.autoconfigure;

import io.micrometer.core.instrument.FunctionCounter;
import io.kubernetes.client.openapi.ApiClient;
import dev.watchkeeper.internal.backoff.TimeSource;
import dev.watchkeeper.internal.api.ServerWaits;
import dev.watchkeeper.internal.annotation.WatchListenerAnnotationBeanPostProcessor;
import dev.watchkeeper.autoconfigure.metrics.ObservationReconcileObserver;
import dev.watchkeeper.autoconfigure.metrics.ReconcileObservationConvention;
import dev.watchkeeper.autoconfigure.metrics.WatchkeeperMetrics;
import dev.watchkeeper.internal.events.EventRecorder;
import dev.watchkeeper.internal.leader.LeaderElector;
import dev.watchkeeper.internal.reconcile.ReconcileObserver;
import dev.watchkeeper.registry.WatchkeeperState;
import dev.watchkeeper.internal.registry.WatchkeeperRegistry;
import dev.watchkeeper.internal.shard.ShardCoordinator;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * Micrometer meters of watchers and reconcilers, reconciles inside an {@code Observation} (timer
 * {@code watchkeeper.reconcile}; a span when tracing is present), and the {@code ApiClient}'s requests observed as
 * {@code watchkeeper.api.requests}, children of the reconcile that made them.
 */
@AutoConfiguration(after = {WatchkeeperAutoConfiguration.class, WatchkeeperShardingAutoConfiguration.class,
        MetricsAutoConfiguration.class,
        CompositeMeterRegistryAutoConfiguration.class},
        afterName = "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration")
@ConditionalOnClass({MeterRegistry.class, ObservationRegistry.class, WatchkeeperRegistry.class})
public final class WatchkeeperMetricsAutoConfiguration {

    /** Each reconcile observed, named and tagged by the application's {@link ReconcileObservationConvention} if any. */
    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean(ObservationRegistry.class)
    ReconcileObserver watchkeeperReconcileObserver(ObservationRegistry observations,
            ObjectProvider<ReconcileObservationConvention> convention, ObjectProvider<WatchkeeperState> state) {
        return new ObservationReconcileObserver(observations, convention.getIfAvailable(),
                new ReconcilerResources(state::getIfAvailable));
    }

    /**
     * Each request of the {@code ApiClient} observed, a child of the reconcile that made it
     * ({@link ApiRequestObservations}).
     */
    @Bean
    @ConditionalOnBean(ObservationRegistry.class)
    ApiClientCustomizer watchkeeperApiRequestObservations(ObservationRegistry observations) {
        return new ApiRequestObservations(observations);
    }

    /**
     * Counters of the server's {@code Retry-After} ({@link ServerWaits}): {@code watchkeeper.api.retry.after}, answers
     * 429 or 503 that asked for a wait, and {@code watchkeeper.api.requests.held}, requests not sent inside one.
     */
    @Bean
    @ConditionalOnBean(ApiClient.class)
    MeterBinder watchkeeperServerWaitsMetrics(ApiClient apiClient, TimeSource time) {
        ServerWaits waits = ServerWaits.on(apiClient, time);
        return meters -> {
            FunctionCounter.builder("watchkeeper.api.retry.after", waits, ServerWaits::answered)
                    .description("API answers 429 or 503 whose Retry-After held their object").register(meters);
            FunctionCounter.builder("watchkeeper.api.requests.held", waits, ServerWaits::heldBack)
                    .description("Requests not sent: their object was inside the server's Retry-After")
                    .register(meters);
        };
    }

    /** Gauge {@code watchkeeper.leader}: 1 while this replica holds the Lease (tag {@code lease}), else 0. */
    @Bean
    @ConditionalOnBean(LeaderElector.class)
    MeterBinder watchkeeperLeaderMetrics(LeaderElector elector) {
        return meters -> Gauge.builder("watchkeeper.leader", elector, e -> e.isLeader() ? 1 : 0)
                .description("1 while this replica holds the Lease and runs the reconcilers, else 0")
                .tag("lease", elector.settings().lease()).register(meters);
    }

    /** The Event recorder's counter ({@link WatchkeeperMetrics#events}). */
    @Bean
    @ConditionalOnBean(EventRecorder.class)
    MeterBinder watchkeeperEventMetrics(EventRecorder recorder) {
        return WatchkeeperMetrics.events(recorder);
    }

    /** The sharding meters ({@link WatchkeeperMetrics#sharding}), with {@code watchkeeper.sharding.enabled=true}. */
    @Bean
    @ConditionalOnBean(ShardCoordinator.class)
    MeterBinder watchkeeperShardingMetrics(ShardCoordinator coordinator) {
        return WatchkeeperMetrics.sharding(coordinator);
    }

    @Bean
    @ConditionalOnBean({WatchkeeperRegistry.class, MeterRegistry.class})
    WatchkeeperMetrics watchkeeperMetrics(WatchkeeperRegistry registry, MeterRegistry meters,
            ObjectProvider<WatchListenerAnnotationBeanPostProcessor> listeners) {
        return new WatchkeeperMetrics(registry, meters, () -> listeners.stream()
                .flatMap(processor -> processor.listeners().stream()).toList());
    }
}
