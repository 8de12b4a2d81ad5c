package dev.watchkeeper.internal.annotation;

import dev.watchkeeper.internal.resource.ResourceTypes;
import dev.watchkeeper.annotation.KubernetesResource;
import dev.watchkeeper.annotation.Reconciler;
import static dev.watchkeeper.reconcile.TestObjects.configMap;
import static dev.watchkeeper.reconcile.TestObjects.secretOwnedBy;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import dev.watchkeeper.reconcile.ReconcileContext;
import dev.watchkeeper.reconcile.ReconcileResult;
import dev.watchkeeper.reconcile.SecondaryMapper;
import dev.watchkeeper.reconcile.TerminalReconcileException;
import dev.watchkeeper.reconcile.Trigger;
import dev.watchkeeper.internal.registry.FakeWatcherFactory;
import dev.watchkeeper.internal.registry.RegistryServices;
import dev.watchkeeper.internal.registry.WatchkeeperRegistry;
import dev.watchkeeper.internal.resource.ResourceType;
import dev.watchkeeper.store.ObjectKey;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Secret;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.core.env.MapPropertySource;

@Timeout(10)
class ReconcilerAnnotationTest {

    /** New per test: a fake's watch stream must not outlive the watcher of a closed context. */
    static FakeWatcherFactory FAKES;
    static final List<String> RECONCILED = new CopyOnWriteArrayList<>();

    private AnnotationConfigApplicationContext context;

    @BeforeAll
    static void pollQuickly() {
        Awaitility.setDefaultPollInterval(Duration.ofMillis(5));
    }

    @BeforeEach
    void freshFakes() {
        FAKES = new FakeWatcherFactory();
    }

    @AfterEach
    void close() {
        if (context != null && context.isActive()) {
            context.close();
        }
        RECONCILED.clear();
    }

    @Test
    void aReconcilerMethodIsRegisteredAndRuns() {
        FAKES.api(ResourceType.of(V1ConfigMap.class)).listing(configMap("a", "1"));

        start(ConfigMapReconciler.class);

        WatchkeeperRegistry registry = context.getBean(WatchkeeperRegistry.class);
        assertThat(registry.reconcilers()).extracting(dev.watchkeeper.internal.reconcile.Reconciler::name)
                .containsExactly("configMaps-reconcile");
        dev.watchkeeper.internal.reconcile.Reconciler<?> controller = registry.reconciler("configMaps-reconcile")
                .orElseThrow();
        assertThat(controller.primary().members()).singleElement()
                .satisfies(watcher -> assertThat(watcher.scope().namespace()).isEqualTo("team-a"));
        assertThat(controller.primary().name()).isEqualTo("configmaps@team-a");
        assertThat(controller.settings().concurrency()).isEqualTo(3);
        assertThat(controller.settings().triggers()).containsExactly(Trigger.GENERATION);
        await().until(() -> RECONCILED.contains("a attempt 1"));

        context.close();
        assertThat(controller.isRunning()).isFalse();
        assertThat(registry.watchers()).noneMatch(w -> w.isRunning());
    }

    @Test
    void twoReconcilersOfOneResourceAndScopeShareOneWatcher() {
        start(TwoReconcilers.class);

        WatchkeeperRegistry registry = context.getBean(WatchkeeperRegistry.class);
        assertThat(registry.reconcilers()).hasSize(2);
        assertThat(registry.watchers()).hasSize(1);
        Object shared = registry.watchers().iterator().next();
        assertThat(registry.reconcilers()).allSatisfy(c -> assertThat((Object) c.primary().members().get(0))
                .isSameAs(shared));
    }

    @Test
    void watchesAreMappedByTheMapperBeanOfTheirType() {
        FAKES.api(ResourceType.of(V1ConfigMap.class)).listing(configMap("target", "1"));

        start(WatchingReconciler.class);
        await().until(() -> RECONCILED.equals(List.of("target")));
        FAKES.api(ResourceType.of(V1Secret.class)).apply(secretOwnedBy("s", "nobody", false));

        await().until(() -> RECONCILED.equals(List.of("target", "target")));
        assertThat(context.getBean(WatchkeeperRegistry.class).reconciler("watching").orElseThrow().secondaries())
                .extracting(w -> w.name()).containsExactly("secrets@all");
    }

    @Test
    void aWrongSignatureFailsStartUpNamingBeanAndMethod() {
        assertThat(startUpFailure(WrongParameter.class))
                .hasMessageContaining("bean 'wrong'")
                .hasMessageContaining("WrongParameterBean.reconcile(String)")
                .hasMessageContaining("first parameter must be the primary resource");
    }

    @Test
    void aWrongReturnTypeFailsStartUp() {
        assertThat(startUpFailure(WrongReturn.class))
                .hasMessageContaining("must return void or ReconcileResult, but returns java.lang.String");
    }

    @Test
    void aClassThatIsNoKnownResourceFailsStartUpSayingWhatToDeclare() {
        assertThat(startUpFailure(UnknownResource.class))
                .hasMessageContaining("bean 'unknown'")
                .hasMessageContaining("declare group, version and plural");
    }

    @Test
    void aNameClashFailsStartUpNamingBoth() {
        assertThat(startUpFailure(ClashingNames.class))
                .hasMessageContaining("'configmaps@all'")
                .hasMessageContaining("reconciler configmaps@all (bean 'clash' method ClashBean.reconcile(V1ConfigMap))")
                .hasMessageContaining("watcher of v1/ConfigMap in all namespaces");
    }

    @Test
    void anUnresolvablePlaceholderFailsStartUp() {
        assertThat(startUpFailure(MissingPlaceholder.class))
                .hasMessageContaining("${nowhere}");
    }

    @Test
    void kubernetesResourceDeclaresACustomType() {
        assertThat(ResourceTypes.resolve(Generator.class)).isEqualTo(
                ResourceType.custom(Generator.class, "samples.watchkeeper.dev", "v1", "generators", true));
        assertThat(ResourceTypes.resolve(V1ConfigMap.class, "", "", "configmaps", true))
                .isEqualTo(ResourceType.of(V1ConfigMap.class).withPlural("configmaps", true));
    }

    /** The most specific cause of a failed start-up: what a user reads first. */
    private Throwable startUpFailure(Class<?> beans) {
        Throwable thrown = catchThrowable(() -> start(beans));
        assertThat(thrown).as("start-up should fail").isNotNull();
        return NestedExceptionUtils.getMostSpecificCause(thrown);
    }

    private void start(Class<?> beans) {
        context = new AnnotationConfigApplicationContext();
        context.getEnvironment().getPropertySources()
                .addFirst(new MapPropertySource("test", Map.of("test.namespace", "team-a")));
        context.register(Infrastructure.class, beans);
        context.refresh();
    }

    @Configuration(proxyBeanMethods = false)
    static class Infrastructure {

        @Bean
        static ReconcilerAnnotationBeanPostProcessor reconcilerAnnotationBeanPostProcessor() {
            return new ReconcilerAnnotationBeanPostProcessor();
        }

        @Bean
        WatchkeeperRegistry watchkeeperRegistry() {
            return new WatchkeeperRegistry(RegistryServices.of(null), FAKES);
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class ConfigMapReconciler {

        @Bean
        Object configMaps() {
            return new Object() {
                @Reconciler(namespace = "${test.namespace}", concurrency = 3, triggerOn = Trigger.GENERATION)
                ReconcileResult reconcile(V1ConfigMap configMap, ReconcileContext context) {
                    RECONCILED.add(configMap.getMetadata().getName() + " attempt " + context.attempt());
                    return ReconcileResult.done();
                }
            };
        }
    }

    static class TwoReconcilersBean {
        @Reconciler
        void first(V1ConfigMap configMap) {
        }

        @Reconciler
        void second(V1ConfigMap configMap) {
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class TwoReconcilers {
        @Bean
        TwoReconcilersBean two() {
            return new TwoReconcilersBean();
        }
    }

    static class WatchingBean {
        @Reconciler(name = "watching", watches = V1Secret.class)
        void reconcile(V1ConfigMap configMap) {
            RECONCILED.add(configMap.getMetadata().getName());
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class WatchingReconciler {
        @Bean
        WatchingBean watchingBean() {
            return new WatchingBean();
        }

        @Bean
        SecondaryMapper<V1Secret> secretMapper() {
            return secret -> List.of(new ObjectKey("default", "target"));
        }

        @Bean
        SecondaryMapper<V1ConfigMap> unrelatedMapper() {
            return configMap -> List.of();
        }
    }

    static class WrongParameterBean {
        @Reconciler
        void reconcile(String notAResource) {
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class WrongParameter {
        @Bean
        WrongParameterBean wrong() {
            return new WrongParameterBean();
        }
    }

    static class WrongReturnBean {
        @Reconciler
        String reconcile(V1ConfigMap configMap) {
            throw new TerminalReconcileException("never called");
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class WrongReturn {
        @Bean
        WrongReturnBean wrongReturn() {
            return new WrongReturnBean();
        }
    }

    /** A custom type without a declaration. */
    static class Undeclared extends V1ConfigMap {
    }

    static class UnknownResourceBean {
        @Reconciler
        void reconcile(Undeclared object) {
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class UnknownResource {
        @Bean
        UnknownResourceBean unknown() {
            return new UnknownResourceBean();
        }
    }

    static class ClashBean {
        @Reconciler(name = "configmaps@all")
        void reconcile(V1ConfigMap configMap) {
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class ClashingNames {
        @Bean
        ClashBean clash() {
            return new ClashBean();
        }
    }

    static class MissingPlaceholderBean {
        @Reconciler(namespace = "${nowhere}")
        void reconcile(V1ConfigMap configMap) {
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class MissingPlaceholder {
        @Bean
        MissingPlaceholderBean missing() {
            return new MissingPlaceholderBean();
        }
    }

    @KubernetesResource(group = "samples.watchkeeper.dev", version = "v1", plural = "generators")
    static class Generator extends V1ConfigMap {
    }
}
