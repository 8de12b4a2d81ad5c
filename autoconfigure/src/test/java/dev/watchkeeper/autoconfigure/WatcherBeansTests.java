package dev.watchkeeper.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.watchkeeper.annotation.WatchListener;
import dev.watchkeeper.internal.registry.WatchkeeperRegistry;
import dev.watchkeeper.registry.WatcherDeclaration;
import dev.watchkeeper.store.Store;
import dev.watchkeeper.watch.WatchEvent;
import dev.watchkeeper.internal.watch.Watcher;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Endpoints;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.NoUniqueBeanDefinitionException;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.core.ResolvableType;

/** Watchers declared in properties and code as beans: types, names, qualifiers and start-up failures. */
class WatcherBeansTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(WatchkeeperAutoConfiguration.class))
            .withBean(ApiClient.class, () -> new ApiClient().setBasePath("http://127.0.0.1:1"))
            .withPropertyValues("watchkeeper.backoff.initial-interval=1m", "watchkeeper.backoff.max-interval=1m");

    @Test
    void aPropertyWatcherIsAWatcherAndAStoreBeanOfItsModelType() {
        runner.withPropertyValues("watchkeeper.watchers.deployments.resource=apps/v1/deployments",
                "watchkeeper.watchers.deployments.label-selector=app=web").run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(names(context, Store.class, V1Deployment.class))
                            .containsExactly("watchkeeper.store.deployments");
                    assertThat(names(context, Watcher.class, V1Deployment.class))
                            .containsExactly("watchkeeper.watcher.deployments");
                    Watcher<?> watcher = context.getBean("watchkeeper.watcher.deployments", Watcher.class);
                    assertThat(watcher.name()).isEqualTo("deployments");
                    assertThat(watcher.scope().labelSelector()).isEqualTo("app=web");
                    assertThat(watcher.scope().namespace()).isNull();
                    assertThat(watcher.type().apiVersion()).isEqualTo("apps/v1");
                    assertThat(watcher.type().kind()).isEqualTo("Deployment");
                    assertThat(context.getBean(WatchkeeperRegistry.class).watchers()).containsExactly(watcher);
                });
    }

    @Test
    void resourcesResolveToBuiltInModelsOrToDynamicObjects() {
        runner.withPropertyValues("watchkeeper.watchers.endpoints.resource=v1/endpoints",
                "watchkeeper.watchers.secrets.api-version=v1", "watchkeeper.watchers.secrets.plural=secrets",
                "watchkeeper.watchers.widgets.resource=example.com/v1/widgets",
                "watchkeeper.watchers.gadgets.api-version=example.com/v1beta1",
                "watchkeeper.watchers.gadgets.kind=Gadget").run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(names(context, Store.class, V1Endpoints.class)).containsExactly("watchkeeper.store.endpoints");
                    assertThat(names(context, Store.class, V1Secret.class)).containsExactly("watchkeeper.store.secrets");
                    assertThat(names(context, Store.class, DynamicKubernetesObject.class))
                            .containsExactlyInAnyOrder("watchkeeper.store.widgets", "watchkeeper.store.gadgets");
                    Watcher<?> widgets = context.getBean("watchkeeper.watcher.widgets", Watcher.class);
                    assertThat(widgets.type().plural()).isEqualTo("widgets");
                    assertThat(widgets.type().group()).isEqualTo("example.com");
                    assertThat(context.getBean("watchkeeper.watcher.gadgets", Watcher.class).type().kind())
                            .isEqualTo("Gadget");
                });
    }

    @Test
    void anEntryWithoutAResourceOnlyOverridesAndDeclaresNoWatcher() {
        runner.withUserConfiguration(Declarations.class)
                .withPropertyValues("watchkeeper.watchers.web-config.backoff.multiplier=3").run(context -> {
                    assertThat(context).hasNotFailed().doesNotHaveBean("watchkeeper.watcher.web-config");
                    assertThat(context.getBean(WatchkeeperRegistry.class).watcher("web-config")).get()
                            .extracting(watcher -> watcher.snapshot().backOffSettings().multiplier())
                            .isEqualTo(3.0);
                });
    }

    @Test
    void anUnparseableResourceFailsStartUpNamingTheProperty() {
        runner.withPropertyValues("watchkeeper.watchers.bad.resource=configmaps").run(context ->
                assertThat(failure(context)).contains("watchkeeper.watchers.bad.resource").contains("configmaps")
                        .contains("<group>/<version>/<plural>"));
    }

    @Test
    void anUnknownBuiltInKindFailsStartUpNamingTheProperty() {
        runner.withPropertyValues("watchkeeper.watchers.bad.api-version=apps/v1",
                "watchkeeper.watchers.bad.kind=Deploymint").run(context ->
                assertThat(failure(context)).contains("watchkeeper.watchers.bad.kind").contains("Deploymint"));
        runner.withPropertyValues("watchkeeper.watchers.bad.resource=v1/configmapz").run(context ->
                assertThat(failure(context)).contains("watchkeeper.watchers.bad.resource").contains("configmapz"));
    }

    @Test
    void anAmbiguousInjectionWithoutQualifierFailsNamingTheCandidates() {
        runner.withPropertyValues("watchkeeper.watchers.one.resource=v1/configmaps",
                "watchkeeper.watchers.one.namespace=a", "watchkeeper.watchers.two.resource=v1/configmaps",
                "watchkeeper.watchers.two.namespace=b").withUserConfiguration(Unqualified.class).run(context -> {
                    assertThat(context).hasFailed();
                    Throwable root = NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure());
                    assertThat(root).isInstanceOf(NoUniqueBeanDefinitionException.class);
                    assertThat(root.getMessage()).contains("watchkeeper.store.one", "watchkeeper.store.two");
                });
    }

    @Test
    void aSingleWatcherOfATypeInjectsWithoutQualifier() {
        runner.withPropertyValues("watchkeeper.watchers.one.resource=v1/configmaps")
                .withUserConfiguration(Unqualified.class).run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(Unqualified.Holder.class).store())
                            .isSameAs(context.getBean("watchkeeper.watcher.one", Watcher.class).store());
                });
    }

    @Test
    void aCodeDeclarationIsNamedByTheBeanUnlessItNamesItself() {
        runner.withUserConfiguration(Declarations.class).run(context -> {
            assertThat(context).hasNotFailed();
            WatchkeeperRegistry registry = context.getBean(WatchkeeperRegistry.class);
            assertThat(registry.watcher("secrets")).isPresent();
            assertThat(registry.watcher("web-config")).isPresent();
            assertThat(context.getBean("watchkeeper.watcher.webConfig")).isSameAs(registry.watcher("web-config").get());
            assertThat(names(context, Store.class, V1Secret.class)).containsExactly("watchkeeper.store.secrets");
        });
    }

    @Test
    void aListenerOfAnUnknownWatcherFailsStartUpNamingIt() {
        runner.withUserConfiguration(Stray.class).run(context ->
                assertThat(failure(context)).contains("@WatchListener").contains("'nope'"));
    }

    private static String[] names(AssertableApplicationContext context, Class<?> raw, Class<?> model) {
        return context.getBeanNamesForType(ResolvableType.forClassWithGenerics(raw, model));
    }

    private static String failure(AssertableApplicationContext context) {
        assertThat(context).hasFailed();
        return NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()).getMessage();
    }

    @Configuration(proxyBeanMethods = false)
    static class Unqualified {

        record Holder(Store<V1ConfigMap> store) {
        }

        @Bean
        Holder holder(Store<V1ConfigMap> store) {
            return new Holder(store);
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class Declarations {

        @Bean
        WatcherDeclaration<V1Secret> secrets() {
            return WatcherDeclaration.of(V1Secret.class).namespace("default");
        }

        @Bean
        WatcherDeclaration<V1ConfigMap> webConfig() {
            return WatcherDeclaration.of(V1ConfigMap.class).labelSelector("app=web").named("web-config");
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class Stray {

        @Bean
        Object strayListener() {
            return new Object() {
                @WatchListener("nope")
                void on(WatchEvent<V1ConfigMap> event) {
                }
            };
        }
    }
}
