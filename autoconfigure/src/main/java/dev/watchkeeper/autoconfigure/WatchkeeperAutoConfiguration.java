package dev.watchkeeper.autoconfigure;

import dev.watchkeeper.internal.api.ServerWaits;
import dev.watchkeeper.internal.annotation.ReconcilerAnnotationBeanPostProcessor;
import dev.watchkeeper.internal.annotation.WatchListenerAnnotationBeanPostProcessor;
import dev.watchkeeper.internal.backoff.TimeSource;
import dev.watchkeeper.internal.events.EventRecorder;
import dev.watchkeeper.internal.events.LeaseEvents;
import dev.watchkeeper.internal.events.Reporter;
import dev.watchkeeper.internal.leader.LeaderElectionSettings;
import dev.watchkeeper.internal.leader.LeaderElector;
import dev.watchkeeper.internal.reconcile.ReconcileObserver;
import dev.watchkeeper.internal.registry.RegistryServices;
import dev.watchkeeper.internal.registry.WatcherFactory;
import dev.watchkeeper.internal.shard.ShardCoordinator;
import dev.watchkeeper.internal.registry.WatchkeeperRegistry;
import dev.watchkeeper.internal.registry.WatchkeeperSettings;
import io.kubernetes.client.openapi.ApiClient;
import java.io.IOException;
import java.util.concurrent.ThreadFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;
import org.springframework.retry.backoff.BackOffPolicy;

/**
 * Watchkeeper's core: an {@link ApiClient} built from the application's {@link KubernetesConnectionDetails} bean or,
 * without one, from {@code $KUBECONFIG}, {@code ~/.kube/config} or in-cluster (finding none fails start-up; an
 * {@code ApiClient} bean of the application's replaces it), the {@link TimeSource}, settings from
 * {@code watchkeeper.*} properties, the {@link WatchkeeperRegistry} that runs every watcher and reconciler, the
 * post-processor that turns {@code @Reconciler} methods into reconcilers, the one that feeds {@code @WatchListener}
 * methods, the registrar that makes every watcher (from properties, from a {@code WatcherDeclaration} bean, or behind
 * a {@code @Reconciler}) a bean with its store, and the check that every override names a watcher or reconciler.
 * Watchers, workers and the elector run on virtual threads when {@code spring.threads.virtual.enabled=true} on
 * Java 21+ ({@link WatchkeeperThreads}). With
 * {@code watchkeeper.leader-election.enabled=true}, a {@link LeaderElector} decides when reconcilers run, and its
 * changes are Events on the Lease. Reconciles' Events go through the {@link EventRecorder}.
 */
@AutoConfiguration
@ConditionalOnClass({ApiClient.class, WatchkeeperRegistry.class})
@ConditionalOnBooleanProperty(name = "watchkeeper.enabled", matchIfMissing = true)
@EnableConfigurationProperties(WatchkeeperProperties.class)
public final class WatchkeeperAutoConfiguration {

    private static final Logger log = LoggerFactory.getLogger(WatchkeeperAutoConfiguration.class);

    /** Name (or qualifier) of a user {@link BackOffPolicy} bean that replaces every watcher's backoff. */
    public static final String WATCHER_BACK_OFF_POLICY = "watchkeeperWatcherBackOffPolicy";

    /** Name (or qualifier) of a user {@link BackOffPolicy} bean that replaces every reconciler's per-object backoff. */
    public static final String RECONCILE_BACK_OFF_POLICY = "watchkeeperReconcileBackOffPolicy";

    /**
     * From $KUBECONFIG, ~/.kube/config or the in-cluster service account; finding none fails start-up. Not looked
     * for when the application has an {@code ApiClient} of its own, which needs none.
     */
    @Bean
    @ConditionalOnMissingBean({KubernetesConnectionDetails.class, ApiClient.class})
    KubernetesConnectionDetails watchkeeperConnectionDetails() throws IOException {
        return KubernetesConnectionDetails.discover();
    }

    /**
     * From the connection details, with the default user agent ({@link UserAgent}), then every
     * {@link ApiClientCustomizer} in order; its requests honour the server's {@code Retry-After}
     * ({@link ServerWaits}).
     */
    @Bean
    @ConditionalOnMissingBean
    ApiClient watchkeeperApiClient(KubernetesConnectionDetails connection,
            ObjectProvider<ApiClientCustomizer> customizers, Environment environment, TimeSource time) {
        ApiClient client = KubernetesApiClients.customized(connection, customizers, environment);
        ServerWaits.on(client, time);
        log.info("Watchkeeper talks to the Kubernetes API at {}, configured by {}", client.getBasePath(),
                connection instanceof DiscoveredConnectionDetails discovered ? discovered.origin()
                        : "a KubernetesConnectionDetails bean (" + connection.getClass().getName() + ")");
        return client;
    }

    @Bean
    @ConditionalOnMissingBean
    TimeSource watchkeeperTimeSource() {
        return TimeSource.system();
    }

    @Bean
    @ConditionalOnMissingBean
    WatchkeeperSettings watchkeeperSettings(WatchkeeperProperties properties,
            @Qualifier(WATCHER_BACK_OFF_POLICY) ObjectProvider<BackOffPolicy> watcherPolicy,
            @Qualifier(RECONCILE_BACK_OFF_POLICY) ObjectProvider<BackOffPolicy> reconcilePolicy) {
        return new PropertiesWatchkeeperSettings(properties, watcherPolicy.getIfAvailable(),
                reconcilePolicy.getIfAvailable());
    }

    @Bean
    @ConditionalOnMissingBean
    WatchkeeperRegistry watchkeeperRegistry(ApiClient apiClient, TimeSource time, WatchkeeperSettings settings,
            ObjectProvider<ReconcileObserver> observer, ObjectProvider<LeaderElector> elector,
            ObjectProvider<ShardCoordinator> coordinator, ApplicationEventPublisher events, Environment environment,
            EventRecorder recorder) {
        ServerWaits.on(apiClient, time); // an application's own ApiClient too, before anything writes through it
        ThreadFactory threads = WatchkeeperThreads.of(environment);
        LeaderElector leader = elector.getIfAvailable();
        RegistryServices services = new RegistryServices(apiClient, time, settings, threads, threads,
                observer.getIfAvailable(), recorder);
        WatchkeeperRegistry registry = new WatchkeeperRegistry(services, WatcherFactory.http(apiClient), leader,
                coordinator.getIfAvailable());
        if (leader != null) { // after the registry's own listener: events come once reconcilers started or stopped
            leader.addListener(new LeadershipEvents(leader, events));
            leader.addListener(new LeaseEvents(recorder, leader.settings()));
        }
        registry.startWatchers(); // caches fill while the rest of the application starts
        return registry;
    }

    /**
     * Where reconciles' {@code publishEvent} and leadership changes go: Kubernetes Events reported by
     * {@code <spring.application.name>/<reconciler>} (or {@code watchkeeper/…}) from the replica's leader election
     * identity (the host name and a random suffix without leader election). The registry closes it when it stops.
     */
    @Bean
    @ConditionalOnMissingBean
    EventRecorder watchkeeperEventRecorder(ApiClient apiClient, TimeSource time, Environment environment,
            ObjectProvider<LeaderElector> elector) {
        LeaderElector leader = elector.getIfAvailable();
        return EventRecorder.create(apiClient, Reporter.of(LeaderElectionDefaults.applicationName(environment),
                leader != null ? leader.settings().identity() : LeaderElectionDefaults.identity()), time);
    }

    /**
     * With {@code watchkeeper.leader-election.enabled=true}: the elector whose Lease the registry's reconcilers run
     * by, renewing through a client of its own ({@link KubernetesApiClients#forLeases}). Its timing is checked here,
     * naming the property at fault.
     */
    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBooleanProperty("watchkeeper.leader-election.enabled")
    LeaderElector watchkeeperLeaderElector(ApiClient apiClient, TimeSource time, WatchkeeperProperties properties,
            Environment environment, ObjectProvider<KubernetesConnectionDetails> connection,
            ObjectProvider<ApiClientCustomizer> customizers) {
        WatchkeeperProperties.LeaderElection election = properties.leaderElection();
        LeaderElectionSettings settings = PropertyLayers.of("watchkeeper.leader-election", election)
                .build(() -> new LeaderElectionSettings(
                        election.leaseName() != null ? election.leaseName()
                                : LeaderElectionDefaults.leaseName(environment),
                        election.leaseNamespace() != null ? election.leaseNamespace()
                                : LeaderElectionDefaults.leaseNamespace(LeaderElectionDefaults.NAMESPACE_FILE),
                        election.identity() != null ? election.identity() : LeaderElectionDefaults.identity(),
                        election.leaseDuration(), election.renewDeadline(), election.retryPeriod(),
                        election.releaseOnCancel()));
        ApiClient leases = KubernetesApiClients.forLeases(apiClient, connection.getIfAvailable(), customizers,
                environment);
        LeaderElector.Builder builder = LeaderElector.builder(leases, settings).timeSource(time);
        ThreadFactory threads = WatchkeeperThreads.of(environment);
        if (threads != null) {
            builder.threadFactory(threads);
        }
        return builder.build();
    }

    @Bean
    @ConditionalOnMissingBean
    static ReconcilerAnnotationBeanPostProcessor reconcilerAnnotationBeanPostProcessor(
            WatcherBeanRegistrar registrar) {
        return new ReconcilerAnnotationBeanPostProcessor(registrar.reconcilers()); // what the registrar parsed
    }

    @Bean
    @ConditionalOnMissingBean
    static WatchListenerAnnotationBeanPostProcessor watchListenerAnnotationBeanPostProcessor() {
        return new WatchListenerAnnotationBeanPostProcessor();
    }

    /** Fails start-up on an override that names no watcher or reconciler, once all are registered. */
    @Bean
    @ConditionalOnMissingBean
    OverrideNamesCheck watchkeeperOverrideNamesCheck(WatchkeeperProperties properties, WatchkeeperRegistry registry,
            ConfigurableEnvironment environment) {
        return new OverrideNamesCheck(properties, registry, environment);
    }

    /** Watchers from properties, {@code WatcherDeclaration} beans and {@code @Reconciler}s, as beans. */
    @Bean
    @ConditionalOnMissingBean
    static WatcherBeanRegistrar watchkeeperWatcherBeanRegistrar() {
        return new WatcherBeanRegistrar();
    }
}
