package dev.watchkeeper.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.watchkeeper.annotation.Reconciler;
import dev.watchkeeper.autoconfigure.endpoint.ReconcilerDescriptor;
import dev.watchkeeper.autoconfigure.endpoint.WatcherDescriptor;
import dev.watchkeeper.autoconfigure.endpoint.WatchkeeperEndpoint;
import dev.watchkeeper.internal.registry.WatchkeeperRegistry;
import dev.watchkeeper.test.apiserver.InMemoryApiServer;
import dev.watchkeeper.internal.watch.Watcher;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Secret;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.NestedExceptionUtils;

/**
 * A reconciler's namespace set ({@code @Reconciler(namespaces)} and {@code watchkeeper.reconcilers.<name>.namespaces}):
 * binding, the watchers it makes (beans, endpoint), and the messages of wrong values.
 */
class ReconcilerNamespacesTests {

    private final InMemoryApiServer server = new InMemoryApiServer().start();
    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(WatchkeeperAutoConfiguration.class,
                    WatchkeeperEndpointAutoConfiguration.class, EndpointAutoConfiguration.class))
            .withPropertyValues("management.endpoints.web.exposure.include=*")
            .withBean(ApiClient.class, server::apiClient);

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void theAnnotationsSetIsOneWatcherPerNamespaceForThePrimaryAndEachSecondaryShownOneByOne() {
        runner.withBean("generator", AnnotatedSet.class).run(context -> {
            WatchkeeperRegistry registry = context.getBean(WatchkeeperRegistry.class);
            assertThat(registry.watchers()).extracting(Watcher::name).containsExactly("configmaps@team-a",
                    "configmaps@team-b", "secrets@team-a", "secrets@team-b");
            assertThat(context).hasBean(WatcherBeanRegistrar.WATCHER_BEAN_PREFIX + "configmaps@team-a")
                    .hasBean(WatcherBeanRegistrar.WATCHER_BEAN_PREFIX + "configmaps@team-b")
                    .hasBean(WatcherBeanRegistrar.STORE_BEAN_PREFIX + "secrets@team-b");

            WatchkeeperEndpoint.WatchkeeperDescriptor endpoint = context.getBean(WatchkeeperEndpoint.class)
                    .watchkeeper();
            assertThat(endpoint.watchers()).extracting(WatcherDescriptor::name, WatcherDescriptor::namespace)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("configmaps@team-a", "team-a"),
                            org.assertj.core.groups.Tuple.tuple("configmaps@team-b", "team-b"),
                            org.assertj.core.groups.Tuple.tuple("secrets@team-a", "team-a"),
                            org.assertj.core.groups.Tuple.tuple("secrets@team-b", "team-b"));
            ReconcilerDescriptor reconciler = endpoint.reconcilers().get(0);
            assertThat(reconciler.primaryWatcher()).isEqualTo("configmaps@team-a+team-b");
            assertThat(reconciler.secondaryWatchers()).containsExactly("secrets@team-a+team-b");
            assertThat(registry.watchersNamed("configmaps@team-a+team-b")).extracting(Watcher::name)
                    .containsExactly("configmaps@team-a", "configmaps@team-b");
        });
    }

    @Test
    void thePropertyReplacesTheAnnotationsNamespace() {
        runner.withBean("generator", SingleNamespace.class)
                .withPropertyValues("watchkeeper.reconcilers.gen.namespaces=blue,green")
                .run(context -> {
                    assertThat(context.getBean(WatchkeeperRegistry.class).watchers()).extracting(Watcher::name)
                            .containsExactly("configmaps@blue", "configmaps@green");
                    assertThat(context).hasBean(WatcherBeanRegistrar.WATCHER_BEAN_PREFIX + "configmaps@blue")
                            .doesNotHaveBean(WatcherBeanRegistrar.WATCHER_BEAN_PREFIX + "configmaps@team-a");
                });
    }

    @Test
    void aPropertyOfOneNamespaceIsThatNamespaceAlone() {
        runner.withBean("generator", AnnotatedSet.class)
                .withPropertyValues("watchkeeper.reconcilers.gen.namespaces[0]=blue")
                .run(context -> assertThat(context.getBean(WatchkeeperRegistry.class).reconciler("gen")
                        .orElseThrow().primary().name()).isEqualTo("configmaps@blue"));
    }

    @Test
    void aValueThatIsNoNamespaceNameFailsStartUpNamingTheProperty() {
        runner.withBean("generator", SingleNamespace.class)
                .withPropertyValues("watchkeeper.reconcilers.gen.namespaces=blue,Team_B")
                .run(context -> assertThat(mostSpecificCause(context)).hasMessage("Invalid value 'Team_B' for"
                        + " property watchkeeper.reconcilers.gen.namespaces: is not a namespace name"));
    }

    @Test
    void namespaceAndNamespacesTogetherFailStartUpNamingTheMethod() {
        runner.withBean("both", Both.class)
                .run(context -> assertThat(mostSpecificCause(context)).hasMessageContaining("bean 'both'")
                        .hasMessageEndingWith("set either namespace or namespaces, not both"));
    }

    @Test
    void anOverrideOfTheSetAsAWholeFailsStartUpNamingItsWatchers() {
        runner.withBean("generator", AnnotatedSet.class)
                .withPropertyValues("watchkeeper.watchers[configmaps@team-a+team-b].backoff.multiplier=3")
                .run(context -> assertThat(mostSpecificCause(context))
                        .hasMessageContaining("watchkeeper.watchers[configmaps@team-a+team-b].backoff.multiplier")
                        .hasMessageContaining("namespace set of a reconciler")
                        .hasMessageContaining("watchkeeper.watchers[configmaps@team-a],"
                                + " watchkeeper.watchers[configmaps@team-b]"));
    }

    @Test
    void aMemberTakesItsOwnOverrides() {
        runner.withBean("generator", AnnotatedSet.class)
                .withPropertyValues("watchkeeper.watchers[configmaps@team-b].backoff.multiplier=3")
                .run(context -> {
                    WatchkeeperRegistry registry = context.getBean(WatchkeeperRegistry.class);
                    assertThat(registry.watcher("configmaps@team-b").orElseThrow().snapshot().backOffSettings()
                            .multiplier()).isEqualTo(3.0);
                    assertThat(registry.watcher("configmaps@team-a").orElseThrow().snapshot().backOffSettings()
                            .multiplier()).isEqualTo(2.0);
                });
    }

    private static Throwable mostSpecificCause(AssertableApplicationContext context) {
        assertThat(context).hasFailed();
        return NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure());
    }

    /** Beans of their own classes, so the watcher registrar sees the annotations before any bean exists. */
    static class AnnotatedSet {
        @Reconciler(name = "gen", namespaces = {"team-a", "team-b"}, owns = V1Secret.class)
        void reconcile(V1ConfigMap configMap) {
        }
    }

    static class SingleNamespace {
        @Reconciler(name = "gen", namespace = "team-a")
        void reconcile(V1ConfigMap configMap) {
        }
    }

    static class Both {
        @Reconciler(namespace = "team-a", namespaces = {"team-b", "team-c"})
        void reconcile(V1ConfigMap configMap) {
        }
    }
}
