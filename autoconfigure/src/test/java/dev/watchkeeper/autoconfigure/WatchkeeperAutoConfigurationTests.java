package dev.watchkeeper.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.watchkeeper.annotation.Reconciler;
import dev.watchkeeper.internal.backoff.BackOffSettings;
import dev.watchkeeper.internal.backoff.TimeSource;
import dev.watchkeeper.internal.reconcile.RateLimit;
import dev.watchkeeper.internal.registry.WatchkeeperRegistry;
import dev.watchkeeper.internal.registry.WatchkeeperSettings;
import dev.watchkeeper.registry.WatcherDeclaration;
import dev.watchkeeper.internal.watch.InitialListStrategy;
import dev.watchkeeper.internal.watch.ListSemantics;
import dev.watchkeeper.internal.watch.WatchOptions;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.core.env.MapPropertySource;
import org.springframework.retry.backoff.BackOffPolicy;
import org.springframework.retry.backoff.FixedBackOffPolicy;
import org.springframework.util.unit.DataSize;

class WatchkeeperAutoConfigurationTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(WatchkeeperAutoConfiguration.class))
            .withBean(ApiClient.class, () -> new ApiClient().setBasePath("http://127.0.0.1:1"));

    @Test
    void providesTheRegistryTimeAndSettings() {
        runner.run(context -> {
            assertThat(context).hasSingleBean(WatchkeeperRegistry.class);
            assertThat(context).hasSingleBean(WatchkeeperSettings.class);
            assertThat(context.getBean(TimeSource.class)).isSameAs(TimeSource.system());
        });
    }

    @Test
    void backsOffWithoutTheKubernetesClient() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(WatchkeeperAutoConfiguration.class))
                .withClassLoader(new FilteredClassLoader(ApiClient.class))
                .run(context -> assertThat(context).doesNotHaveBean(WatchkeeperRegistry.class));
    }

    @Test
    void canBeSwitchedOff() {
        runner.withPropertyValues("watchkeeper.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(WatchkeeperRegistry.class));
    }

    @Test
    void theApplicationsApiClientWins() {
        runner.run(context -> assertThat(context.getBean(ApiClient.class).getBasePath())
                .isEqualTo("http://127.0.0.1:1"));
    }

    @Test
    void userBeansWin() {
        runner.withUserConfiguration(UserBeans.class).run(context -> {
            assertThat(context.getBean(TimeSource.class)).isSameAs(UserBeans.TIME);
            assertThat(context.getBean(WatchkeeperSettings.class)).isSameAs(UserBeans.SETTINGS);
        });
    }

    @Test
    void aNamedBackOffPolicyBeanReplacesTheWatchersBackOff() {
        runner.withUserConfiguration(UserPolicy.class).run(context -> assertThat(
                context.getBean(WatchkeeperSettings.class).watcherBackOffPolicy("any"))
                .isInstanceOf(FixedBackOffPolicy.class));
    }

    @Test
    void bindsGlobalValuesAndPerWatcherAndPerReconcilerOverrides() {
        runner.withUserConfiguration(Declared.class).withPropertyValues(
                "watchkeeper.backoff.initial-interval=1s",
                "watchkeeper.backoff.max-interval=1m",
                "watchkeeper.backoff.max-elapsed-time=10m",
                "watchkeeper.watch.page-size=100",
                "watchkeeper.watch.initial-list=auto",
                "watchkeeper.watch.auto-fallback-after=3s",
                "watchkeeper.watchers.cms.backoff.multiplier=3",
                "watchkeeper.watchers.cms.watch.timeout=60s",
                "watchkeeper.reconcilers.gen.concurrency=4",
                "watchkeeper.reconcilers.gen.resync-period=0",
                "watchkeeper.reconcile.shutdown-grace=5s")
                .run(context -> {
                    WatchkeeperSettings settings = context.getBean(WatchkeeperSettings.class);
                    BackOffSettings global = settings.watcherBackOff("other");
                    assertThat(global).isEqualTo(new BackOffSettings(Duration.ofSeconds(1), 2.0,
                            Duration.ofMinutes(1), 1.0, Duration.ofMinutes(2), Duration.ofMinutes(10)));
                    assertThat(settings.watcherBackOff("cms").multiplier()).isEqualTo(3.0);
                    assertThat(settings.watcherBackOff("cms").initialInterval()).isEqualTo(Duration.ofSeconds(1));
                    WatchOptions options = settings.watchOptions("cms");
                    assertThat(options.pageSize()).isEqualTo(100);
                    assertThat(options.timeout()).isEqualTo(Duration.ofSeconds(60));
                    assertThat(options.initialList()).isEqualTo(InitialListStrategy.AUTO);
                    assertThat(options.autoFallbackAfter()).isEqualTo(Duration.ofSeconds(3));
                    assertThat(settings.reconciler("gen", 1, null).concurrency()).as("property beats annotation")
                            .isEqualTo(4);
                    assertThat(settings.reconciler("gen", 1, null).resyncPeriod()).isZero();
                    assertThat(settings.reconciler("other", 2, null).concurrency()).isEqualTo(2);
                    assertThat(settings.reconciler("other", 2, null).shutdownGrace()).isEqualTo(Duration.ofSeconds(5));
                });
    }

    @Test
    void debounceComesFromTheReconcilersPropertyElseItsAnnotationElseTheGlobalProperty() {
        runner.withUserConfiguration(Declared.class).withPropertyValues(
                "watchkeeper.reconcile.debounce=2s",
                "watchkeeper.reconcilers.gen.debounce=500ms")
                .run(context -> {
                    WatchkeeperSettings settings = context.getBean(WatchkeeperSettings.class);
                    assertThat(settings.reconciler("gen", 1, Duration.ofSeconds(9)).debounce())
                            .isEqualTo(Duration.ofMillis(500));
                    assertThat(settings.reconciler("other", 1, Duration.ofSeconds(9)).debounce())
                            .isEqualTo(Duration.ofSeconds(9));
                    assertThat(settings.reconciler("other", 1, null).debounce()).isEqualTo(Duration.ofSeconds(2));
                });
        runner.run(context -> assertThat(context.getBean(WatchkeeperSettings.class).reconciler("x", 1, null)
                .debounce()).as("off by default").isZero());
    }

    @Test
    void shutdownDrainIsOffUnlessSetGloballyOrPerReconciler() {
        runner.withUserConfiguration(Declared.class).run(context -> assertThat(context
                .getBean(WatchkeeperSettings.class).reconciler("gen", 1, null).shutdownDrain()).isFalse());
        runner.withUserConfiguration(Declared.class).withPropertyValues("watchkeeper.reconcile.shutdown-drain=true",
                "watchkeeper.reconcilers.gen.shutdown-drain=false")
                .run(context -> {
                    WatchkeeperSettings settings = context.getBean(WatchkeeperSettings.class);
                    assertThat(settings.reconciler("other", 1, null).shutdownDrain()).isTrue();
                    assertThat(settings.reconciler("gen", 1, null).shutdownDrain()).isFalse();
                });
    }

    @Test
    void theMaxLowPriorityWaitIsSetGloballyAndPerReconciler() {
        runner.withUserConfiguration(Declared.class).withPropertyValues(
                "watchkeeper.reconcile.max-low-priority-wait=30s", "watchkeeper.reconcilers.gen.max-low-priority-wait=0")
                .run(context -> {
                    WatchkeeperSettings settings = context.getBean(WatchkeeperSettings.class);
                    assertThat(settings.reconciler("other", 1, null).maxLowPriorityWait())
                            .isEqualTo(Duration.ofSeconds(30));
                    assertThat(settings.reconciler("gen", 1, null).maxLowPriorityWait()).isZero();
                });
    }

    @Test
    void statusConditionsAreOnUnlessTurnedOffGloballyOrPerReconciler() {
        runner.withUserConfiguration(Declared.class).run(context -> assertThat(context
                .getBean(WatchkeeperSettings.class).statusConditions("gen")).isTrue());
        runner.withUserConfiguration(Declared.class)
                .withPropertyValues("watchkeeper.reconcilers.gen.status-conditions.enabled=false")
                .run(context -> {
                    WatchkeeperSettings settings = context.getBean(WatchkeeperSettings.class);
                    assertThat(settings.statusConditions("other")).isTrue();
                    assertThat(settings.statusConditions("gen")).isFalse();
                });
        runner.withUserConfiguration(Declared.class)
                .withPropertyValues("watchkeeper.reconcile.status-conditions.enabled=false",
                        "watchkeeper.reconcilers.gen.status-conditions.enabled=true")
                .run(context -> {
                    WatchkeeperSettings settings = context.getBean(WatchkeeperSettings.class);
                    assertThat(settings.statusConditions("other")).isFalse();
                    assertThat(settings.statusConditions("gen")).isTrue();
                });
    }

    @Test
    void theReadYourWritesWaitIsFiveSecondsUnlessSetGloballyOrPerReconciler() {
        runner.withUserConfiguration(Declared.class).run(context -> assertThat(context
                .getBean(WatchkeeperSettings.class).reconciler("gen", 1, null).readYourWritesTimeout())
                .isEqualTo(Duration.ofSeconds(5)));
        runner.withUserConfiguration(Declared.class)
                .withPropertyValues("watchkeeper.reconcile.read-your-writes.timeout=2s",
                        "watchkeeper.reconcilers.gen.read-your-writes.timeout=0s")
                .run(context -> {
                    WatchkeeperSettings settings = context.getBean(WatchkeeperSettings.class);
                    assertThat(settings.reconciler("other", 1, null).readYourWritesTimeout())
                            .isEqualTo(Duration.ofSeconds(2));
                    assertThat(settings.reconciler("gen", 1, null).readYourWritesTimeout()).as("the fence off")
                            .isZero();
                });
        runner.withUserConfiguration(Declared.class)
                .withPropertyValues("watchkeeper.reconcilers.gen.read-your-writes.timeout=-1s")
                .run(context -> assertThat(context).getFailure().rootCause()
                        .hasMessageContaining("watchkeeper.reconcilers.gen.read-your-writes.timeout")
                        .hasMessageContaining("must not be negative"));
    }

    @Test
    void theRetryRateLimitIsOffByDefaultAndTakesClientGosNumbersWhenOn() {
        runner.withUserConfiguration(Declared.class).run(context -> assertThat(context
                .getBean(WatchkeeperSettings.class).reconciler("gen", 1, null).rateLimit()).isNull());
        runner.withUserConfiguration(Declared.class)
                .withPropertyValues("watchkeeper.reconcile.rate-limit.enabled=true",
                        "watchkeeper.reconcilers.gen.rate-limit.qps=2.5")
                .run(context -> {
                    WatchkeeperSettings settings = context.getBean(WatchkeeperSettings.class);
                    assertThat(settings.reconciler("other", 1, null).rateLimit()).isEqualTo(RateLimit.clientGo());
                    assertThat(settings.reconciler("gen", 1, null).rateLimit()).isEqualTo(new RateLimit(2.5, 100));
                });
        runner.withUserConfiguration(Declared.class)
                .withPropertyValues("watchkeeper.reconcilers.gen.rate-limit.enabled=true")
                .run(context -> assertThat(context.getBean(WatchkeeperSettings.class).reconciler("other", 1, null)
                        .rateLimit()).as("only where enabled").isNull());
    }

    @Test
    void anInvalidRateLimitFailsStartUpNamingThePropertyEvenWhileOff() {
        runner.withPropertyValues("watchkeeper.reconcile.rate-limit.qps=0")
                .run(context -> assertThat(context).getFailure().rootCause()
                        .hasMessageContaining("watchkeeper.reconcile.rate-limit.qps")
                        .hasMessageContaining("must be a positive number"));
        runner.withUserConfiguration(Declared.class)
                .withPropertyValues("watchkeeper.reconcilers.gen.rate-limit.burst=0")
                .run(context -> assertThat(context).getFailure().rootCause()
                        .hasMessageContaining("watchkeeper.reconcilers.gen.rate-limit.burst")
                        .hasMessageContaining("must be at least 1"));
    }

    @Test
    void aNegativeDebounceFailsStartUpNamingTheProperty() {
        runner.withUserConfiguration(Declared.class).withPropertyValues("watchkeeper.reconcilers.gen.debounce=-1s")
                .run(context -> assertThat(context).getFailure().rootCause()
                        .hasMessageContaining("watchkeeper.reconcilers.gen.debounce")
                        .hasMessageContaining("must not be negative"));
        runner.withPropertyValues("watchkeeper.reconcile.debounce=-5ms")
                .run(context -> assertThat(context).getFailure().rootCause()
                        .hasMessageContaining("watchkeeper.reconcile.debounce")
                        .hasMessageContaining("must not be negative"));
    }

    @Test
    void defaultsAreClientGosNumbers() {
        runner.run(context -> {
            WatchkeeperSettings settings = context.getBean(WatchkeeperSettings.class);
            assertThat(settings.watcherBackOff("x")).isEqualTo(BackOffSettings.clientGo());
            assertThat(settings.watchOptions("x")).isEqualTo(WatchOptions.defaults());
            assertThat(settings.reconciler("x", 1, null).resyncPeriod()).isEqualTo(Duration.ofHours(10));
        });
    }

    @Test
    void aJitterAboveOneIsAcceptedAsClientGoAcceptsIt() {
        runner.withUserConfiguration(Declared.class)
                .withPropertyValues("watchkeeper.backoff.jitter=3", "watchkeeper.reconcile.backoff.jitter=3")
                .run(context -> {
                    PropertiesWatchkeeperSettings settings = (PropertiesWatchkeeperSettings) context
                            .getBean(WatchkeeperSettings.class);
                    assertThat(settings.watcherBackOff("cms").jitter()).isEqualTo(3.0);
                    assertThat(settings.reconcileBackOff("gen", null).jitter()).isEqualTo(3.0);
                });
    }

    @Test
    void aNegativeJitterFailsStartUpNamingTheProperty() {
        runner.withPropertyValues("watchkeeper.reconcile.backoff.jitter=-0.5").run(context -> assertThat(context)
                .getFailure().rootCause().hasMessageContaining("watchkeeper.reconcile.backoff.jitter")
                .hasMessageContaining("must not be negative"));
    }

    @Test
    void theWatcherRegistrarAndThePostProcessorShareOneParseOfEachReconciler() {
        CountingSource counting = new CountingSource();
        runner.withInitializer(context -> context.getEnvironment().getPropertySources().addFirst(counting))
                .withBean("mirrors", Mirrors.class).run(context -> {
                    assertThat(context.getBean(WatchkeeperRegistry.class).reconciler("mirror")).isPresent();
                    assertThat(context).hasBean(WatcherBeanRegistrar.WATCHER_BEAN_PREFIX + "configmaps@all");
                    int atStartUp = counting.reads;
                    context.getEnvironment().resolvePlaceholders("${counted.name}"); // what one parse reads
                    assertThat(atStartUp).isPositive().isEqualTo(counting.reads - atStartUp);
                });
    }

    @Test
    void aNegativeIntervalFailsStartUpNamingTheProperty() {
        runner.withPropertyValues("watchkeeper.backoff.initial-interval=-1s").run(context -> assertThat(context)
                .getFailure().rootCause().hasMessageContaining("watchkeeper.backoff.initial-interval")
                .hasMessageContaining("must be positive"));
    }

    @Test
    void aMultiplierBelowOneFailsStartUpNamingTheProperty() {
        runner.withPropertyValues("watchkeeper.watchers.cms.backoff.multiplier=0.5")
                .run(context -> assertThat(context).getFailure().rootCause()
                        .hasMessageContaining("watchkeeper.watchers.cms.backoff.multiplier")
                        .hasMessageContaining("must be at least 1"));
    }

    @Test
    void aMaxBelowTheInitialIntervalFailsStartUpNamingTheProperty() {
        runner.withPropertyValues("watchkeeper.reconcile.backoff.max-interval=1ms",
                "watchkeeper.reconcile.backoff.initial-interval=5ms")
                .run(context -> assertThat(context).getFailure().rootCause()
                        .hasMessageContaining("watchkeeper.reconcile.backoff.max-interval")
                        .hasMessageContaining("must not be below"));
    }

    @Test
    void aZeroConcurrencyFailsStartUpNamingTheProperty() {
        runner.withPropertyValues("watchkeeper.reconcilers.gen.concurrency=0")
                .run(context -> assertThat(context).getFailure().rootCause()
                        .hasMessageContaining("watchkeeper.reconcilers.gen.concurrency"));
    }

    @Test
    void aPerWatcherAutoFallbackOverridesTheGlobalOne() {
        runner.withUserConfiguration(Declared.class).withPropertyValues("watchkeeper.watch.initial-list=auto",
                "watchkeeper.watchers.cms.watch.auto-fallback-after=3s").run(context -> {
                    WatchkeeperSettings settings = context.getBean(WatchkeeperSettings.class);
                    assertThat(settings.watchOptions("cms").autoFallbackAfter()).isEqualTo(Duration.ofSeconds(3));
                    assertThat(settings.watchOptions("other").autoFallbackAfter()).isEqualTo(Duration.ofSeconds(10));
                });
    }

    @Test
    void listSemanticsAreConsistentUnlessSetGloballyOrPerWatcher() {
        runner.withUserConfiguration(Declared.class).run(context -> assertThat(context
                .getBean(WatchkeeperSettings.class).watchOptions("cms").listSemantics())
                .isEqualTo(ListSemantics.CONSISTENT));
        runner.withUserConfiguration(Declared.class).withPropertyValues("watchkeeper.watch.list-semantics=cached",
                "watchkeeper.watchers.cms.watch.list-semantics=consistent").run(context -> {
                    WatchkeeperSettings settings = context.getBean(WatchkeeperSettings.class);
                    assertThat(settings.watchOptions("cms").listSemantics()).isEqualTo(ListSemantics.CONSISTENT);
                    assertThat(settings.watchOptions("other").listSemantics()).isEqualTo(ListSemantics.CACHED);
                });
    }

    @Test
    void theMaxEventSizeIs16MegabytesUnlessSetGloballyOrPerWatcher() {
        runner.withUserConfiguration(Declared.class).run(context -> assertThat(context
                .getBean(WatchkeeperSettings.class).watchOptions("cms").maxEventSize())
                .isEqualTo(DataSize.ofMegabytes(16)));
        runner.withUserConfiguration(Declared.class).withPropertyValues("watchkeeper.watch.max-event-size=64MB",
                "watchkeeper.watchers.cms.watch.max-event-size=2MB").run(context -> {
                    WatchkeeperSettings settings = context.getBean(WatchkeeperSettings.class);
                    assertThat(settings.watchOptions("cms").maxEventSize()).isEqualTo(DataSize.ofMegabytes(2));
                    assertThat(settings.watchOptions("other").maxEventSize()).isEqualTo(DataSize.ofMegabytes(64));
                });
    }

    @Test
    void aMaxEventSizeBelowOneKilobyteFailsStartUpNamingItsProperty() {
        runner.withPropertyValues("watchkeeper.watch.max-event-size=100B")
                .run(context -> assertThat(context).getFailure().rootCause()
                        .hasMessageContaining("watchkeeper.watch.max-event-size")
                        .hasMessageContaining("must be at least 1KB"));
    }

    @Test
    void aZeroAutoFallbackOfOneWatcherFailsStartUpNamingItsProperty() {
        runner.withPropertyValues("watchkeeper.watchers.cms.watch.auto-fallback-after=0s")
                .run(context -> assertThat(context).getFailure().rootCause()
                        .hasMessageContaining("watchkeeper.watchers.cms.watch.auto-fallback-after")
                        .hasMessageContaining("must be positive"));
    }

    @Test
    void aRefusedValueIsNamedByThePropertyThatSetIt() {
        runner.withPropertyValues("watchkeeper.watchers.cms.backoff.initial-interval=1m")
                .run(context -> assertThat(context).getFailure().rootCause()
                        .hasMessageContaining("watchkeeper.backoff.max-interval")
                        .hasMessageContaining("must not be below the initial interval PT1M"));
    }

    @Test
    void aMisspeltKeyFailsStartUpNamingTheNearestKnownKey() {
        runner.withPropertyValues("watchkeeper.backof.max-interval=1m")
                .run(context -> assertThat(mostSpecificCause(context))
                        .hasMessageContaining("watchkeeper.backof.max-interval")
                        .hasMessageContaining("did you mean watchkeeper.backoff.max-interval?"));
        runner.withPropertyValues("watchkeeper.watchers.cms.backoff.max-intreval=1m")
                .run(context -> assertThat(mostSpecificCause(context))
                        .hasMessageContaining("did you mean watchkeeper.watchers.cms.backoff.max-interval?"));
    }

    @Test
    void keysInAnyRelaxedFormAndListIndicesAreKnown() {
        runner.withUserConfiguration(Declared.class).withPropertyValues("watchkeeper.backoff.maxInterval=1m",
                "watchkeeper.watchers.teams.resource=v1/configmaps", "watchkeeper.watchers.teams.namespaces[0]=a",
                "watchkeeper.watchers.teams.namespaces[1]=b")
                .run(context -> assertThat(context).hasNotFailed());
    }

    @Test
    void anOverrideOfNoWatcherFailsStartUpListingTheWatchers() {
        runner.withUserConfiguration(Declared.class).withPropertyValues("watchkeeper.watchers.cmz.backoff.multiplier=3")
                .run(context -> assertThat(context).getFailure().rootCause()
                        .hasMessageContaining("watchkeeper.watchers.cmz.backoff.multiplier")
                        .hasMessageContaining("no watcher has that name")
                        .hasMessageContaining("[cms, configmaps@all]"));
    }

    @Test
    void anOverrideOfNoReconcilerFailsStartUpListingTheReconcilers() {
        runner.withUserConfiguration(Declared.class).withPropertyValues("watchkeeper.reconcilers.gne.concurrency=2")
                .run(context -> assertThat(context).getFailure().rootCause()
                        .hasMessageContaining("watchkeeper.reconcilers.gne.concurrency")
                        .hasMessageContaining("no reconciler has that name")
                        .hasMessageContaining("[gen]"));
    }

    @Test
    void aWatcherNameWithAnAtSignIsOverriddenInBrackets() {
        runner.withUserConfiguration(Declared.class)
                .withPropertyValues("watchkeeper.watchers[configmaps@all].backoff.multiplier=3")
                .run(context -> assertThat(context.getBean(WatchkeeperRegistry.class).watcher("configmaps@all"))
                        .get().extracting(watcher -> watcher.snapshot().backOffSettings().multiplier())
                        .isEqualTo(3.0));
        runner.withUserConfiguration(Declared.class)
                .withPropertyValues("watchkeeper.watchers.configmaps@all.backoff.multiplier=3")
                .run(context -> assertThat(context).getFailure().rootCause()
                        .hasMessageContaining("'configmapsall'")
                        .hasMessageContaining("configmaps@all"));
    }

    @Test
    void theShardSelectorNarrowsEveryReconcilersPrimaryWatcher() {
        runner.withUserConfiguration(Declared.class).withPropertyValues("watchkeeper.shard.label-selector=shard=blue")
                .run(context -> {
                    WatchkeeperRegistry registry = context.getBean(WatchkeeperRegistry.class);
                    assertThat(registry.reconciler("gen").orElseThrow().primary().members().get(0).scope().labelSelector())
                            .isEqualTo("shard=blue");
                    assertThat(registry.watcher("cms").orElseThrow().scope().labelSelector())
                            .as("a watcher of no reconciler keeps its own").isNull();
                });
    }

    @Test
    void anOverrideOfANamespaceGroupMemberFailsStartUpPointingAtTheGroup() {
        runner.withPropertyValues("watchkeeper.watchers.teams.resource=v1/configmaps",
                "watchkeeper.watchers.teams.namespaces=a,b",
                "watchkeeper.watchers[teams@a].backoff.multiplier=3")
                .run(context -> assertThat(context).getFailure().rootCause()
                        .hasMessageContaining("watchkeeper.watchers[teams@a].backoff.multiplier")
                        .hasMessageContaining("member of the namespace group 'teams'")
                        .hasMessageContaining("watchkeeper.watchers.teams"));
    }

    @Test
    void aWatcherDeclaredInPropertiesIsNoOverrideAndTakesItsOwn() {
        runner.withPropertyValues("watchkeeper.watchers.app.resource=v1/configmaps",
                "watchkeeper.watchers.app.backoff.multiplier=3")
                .run(context -> assertThat(context.getBean(WatchkeeperRegistry.class).watcher("app")).get()
                        .extracting(watcher -> watcher.snapshot().backOffSettings().multiplier()).isEqualTo(3.0));
    }

    private static Throwable mostSpecificCause(AssertableApplicationContext context) {
        assertThat(context).hasFailed();
        return NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure());
    }

    /** A watcher named cms, and a reconciler named gen whose watcher is configmaps@all. */
    @Configuration(proxyBeanMethods = false)
    static class Declared {

        @Bean
        WatcherDeclaration<V1ConfigMap> cms() {
            return WatcherDeclaration.of(V1ConfigMap.class).namespace("default");
        }

        @Bean
        Object generator() {
            return new Object() {
                @Reconciler(name = "gen")
                void reconcile(V1ConfigMap configMap) {
                }
            };
        }
    }

    static class Mirrors {
        @Reconciler(name = "${counted.name}")
        void reconcile(V1ConfigMap configMap) {
        }
    }

    /** Counts the reads of {@code counted.name}. */
    static final class CountingSource extends MapPropertySource {
        int reads;

        CountingSource() {
            super("counting", Map.of("counted.name", "mirror"));
        }

        @Override
        public Object getProperty(String name) {
            if (name.equals("counted.name")) {
                reads++;
            }
            return super.getProperty(name);
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class UserBeans {
        static final TimeSource TIME = new TimeSource() {
            @Override
            public java.time.Clock clock() {
                return java.time.Clock.systemUTC();
            }

            @Override
            public void await(Object monitor, Duration delay, java.util.function.BooleanSupplier wake) {
            }
        };
        static final WatchkeeperSettings SETTINGS = new WatchkeeperSettings() {
        };

        @Bean
        TimeSource myTime() {
            return TIME;
        }

        @Bean
        WatchkeeperSettings mySettings() {
            return SETTINGS;
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class UserPolicy {
        @Bean(WatchkeeperAutoConfiguration.WATCHER_BACK_OFF_POLICY)
        BackOffPolicy watcherPolicy() {
            return new FixedBackOffPolicy();
        }
    }
}
