package dev.watchkeeper.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.watchkeeper.internal.backoff.BackOffSettings;
import dev.watchkeeper.internal.leader.LeaderElectionSettings;
import dev.watchkeeper.internal.leader.LeaderElector;
import dev.watchkeeper.internal.reconcile.RateLimit;
import dev.watchkeeper.internal.reconcile.ReconcilerSettings;
import dev.watchkeeper.internal.registry.WatchkeeperSettings;
import dev.watchkeeper.internal.watch.WatchOptions;
import io.kubernetes.client.openapi.ApiClient;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Bound from no {@code watchkeeper.*} values, the properties give every runtime settings record its own defaults:
 * the property defaults are the runtime's {@code DEFAULT_*} constants, and this keeps them so.
 */
class PropertyDefaultsTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(WatchkeeperAutoConfiguration.class))
            .withBean(ApiClient.class, () -> new ApiClient().setBasePath("http://127.0.0.1:1"));

    @Test
    void unsetPropertiesAreTheRuntimesDefaults() {
        runner.run(context -> {
            PropertiesWatchkeeperSettings settings = (PropertiesWatchkeeperSettings) context
                    .getBean(WatchkeeperSettings.class);
            assertThat(settings.watcherBackOff(null)).isEqualTo(BackOffSettings.clientGo());
            assertThat(settings.watchOptions(null)).isEqualTo(WatchOptions.defaults());
            assertThat(settings.reconcileBackOff(null, null)).isEqualTo(ReconcilerSettings.defaultBackOff());
            ReconcilerSettings defaults = ReconcilerSettings.defaults();
            assertThat(settings.reconciler(null, ReconcilerSettings.DEFAULT_CONCURRENCY, null)
                    .withBackOffPolicy(defaults.backOffPolicy())).isEqualTo(defaults);
            WatchkeeperProperties.ReconcileRateLimit rateLimit = context.getBean(WatchkeeperProperties.class)
                    .reconcile().rateLimit();
            assertThat(new RateLimit(rateLimit.qps(), rateLimit.burst())).isEqualTo(RateLimit.clientGo());
        });
    }

    @Test
    void unsetLeaderElectionTimingIsTheRuntimesDefault() {
        runner.withPropertyValues("watchkeeper.leader-election.enabled=true").run(context -> {
            LeaderElectionSettings settings = context.getBean(LeaderElector.class).settings();
            assertThat(settings).isEqualTo(LeaderElectionSettings.of(settings.leaseName(), settings.leaseNamespace(),
                    settings.identity()));
        });
    }
}
