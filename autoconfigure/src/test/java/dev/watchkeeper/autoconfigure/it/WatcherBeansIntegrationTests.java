package dev.watchkeeper.autoconfigure.it;

import static dev.watchkeeper.test.stub.Replies.added;
import static dev.watchkeeper.test.stub.Replies.cm;
import static dev.watchkeeper.test.stub.Replies.events;
import static dev.watchkeeper.test.stub.Replies.page;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.watchkeeper.annotation.Reconciler;
import dev.watchkeeper.annotation.WatchListener;
import dev.watchkeeper.autoconfigure.endpoint.WatcherDescriptor;
import dev.watchkeeper.autoconfigure.endpoint.WatchkeeperEndpoint;
import dev.watchkeeper.registry.WatcherDeclaration;
import dev.watchkeeper.internal.registry.WatchkeeperRegistry;
import dev.watchkeeper.store.Store;
import dev.watchkeeper.test.EventRecorder;
import dev.watchkeeper.test.boot.AutoConfigureKubeApiStub;
import dev.watchkeeper.test.boot.KubeApiStubCustomizer;
import dev.watchkeeper.watch.WatchEvent;
import dev.watchkeeper.internal.watch.Watcher;
import dev.watchkeeper.watch.WatcherPhase;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.test.annotation.DirtiesContext;

/**
 * Watchers declared in properties and in code, injected as beans, listened to by {@code @WatchListener} methods,
 * against the scripted API stub over HTTP.
 */
@SpringBootTest(classes = {WatcherBeansIntegrationTests.App.class, WatcherBeansIntegrationTests.Script.class},
        properties = {
        "watchkeeper.watchers.app-config.resource=v1/configmaps",
        "watchkeeper.watchers.app-config.namespace=default",
        "watchkeeper.watchers.teams.api-version=v1",
        "watchkeeper.watchers.teams.kind=ConfigMap",
        "watchkeeper.watchers.teams.namespaces=team-a,team-b",
        "watchkeeper.watchers.teams.backoff.initial-interval=2s",
        "watchkeeper.watchers.web-config.backoff.initial-interval=5s",
        "watchkeeper.backoff.initial-interval=1500ms",
        "management.endpoints.web.exposure.include=watchkeeper"})
@AutoConfigureKubeApiStub
@DirtiesContext
class WatcherBeansIntegrationTests {

    static final Duration WAIT = Duration.ofSeconds(10);

    /** The API stub's script, written before the application's first call. */
    @TestConfiguration
    static class Script {

        @Bean
        KubeApiStubCustomizer script() {
            return stub -> {
                stub.on("/api/v1/namespaces/default/configmaps")
                        .list(page(cm("a", "1")).resourceVersion("1"))
                        .watch(events(added(cm("b", "2"))).thenStayOpen());
                stub.on("/api/v1/namespaces/web/configmaps")
                        .list(page(cmIn("web", "w1", "1")).resourceVersion("1"))
                        .watch(events(added(cmIn("web", "w2", "2"))).thenStayOpen());
                stub.on("/api/v1/namespaces/team-a/configmaps")
                        .list(page(cmIn("team-a", "x", "1")).resourceVersion("1"))
                        .watch(events().thenStayOpen());
                stub.on("/api/v1/namespaces/team-b/configmaps")
                        .list(page(cmIn("team-b", "y", "1")).resourceVersion("1"))
                        .watch(events().thenStayOpen());
                stub.on("/api/v1/namespaces/rec/configmaps")
                        .list(page().resourceVersion("1"))
                        .watch(events().thenStayOpen());
            };
        }
    }

    @Autowired
    @Qualifier("app-config")
    Store<V1ConfigMap> appConfig;

    @Autowired
    @Qualifier("app-config")
    Watcher<V1ConfigMap> appConfigWatcher;

    @Autowired
    @Qualifier("sameAsAppConfig")
    Watcher<V1ConfigMap> sameAsAppConfig;

    @Autowired
    @Qualifier("web-config")
    Store<V1ConfigMap> webConfig;

    @Autowired
    @Qualifier("teams")
    Store<V1ConfigMap> teams;

    @Autowired
    WatchkeeperRegistry registry;

    @Autowired
    Listeners listeners;

    @Autowired
    ApplicationContext context;

    @Autowired
    MeterRegistry meters;

    @Autowired
    WatchkeeperEndpoint endpoint;

    @Test
    void aPropertyWatcherSyncsAndItsInjectedStoreAnswers() throws InterruptedException {
        assertThat(appConfig.awaitReady(WAIT)).isTrue();
        await().atMost(WAIT).until(() -> appConfig.size() == 2);
        assertThat(appConfig.get("default", "a")).isPresent();
        assertThat(appConfig.list()).extracting(c -> c.getMetadata().getName()).containsExactly("a", "b");
        assertThat(appConfigWatcher.name()).isEqualTo("app-config");
        assertThat(appConfigWatcher.store()).isSameAs(appConfig);
        assertThat(registry.watcher("app-config")).containsSame(appConfigWatcher);
    }

    @Test
    void aListenerReceivesTheEventSequence() {
        await().atMost(WAIT).until(() -> listeners.appConfig.size() >= 4);
        // The watcher starts while the context is created, the listener joins at its start: if the watch has
        // handed over b by then, the listener catches up from the store, where b is part of what was listed.
        assertThat(listeners.appConfig).isIn(List.of("Init", "InitApply(a)", "InitDone", "Apply(b)"),
                List.of("Init", "InitApply(a)", "InitApply(b)", "InitDone"));
    }

    @Test
    void aThrowingListenerLeavesTheWatcherWatchingAndOtherListenersFed() {
        await().atMost(WAIT).until(() -> listeners.failures.get() >= 4 && listeners.appConfig.size() >= 4);
        assertThat(appConfigWatcher.snapshot().phase()).isEqualTo(WatcherPhase.WATCHING);
        assertThat(appConfigWatcher.isRunning()).isTrue();
    }

    @Test
    void aCodeDeclaredWatcherSyncsAndFeedsItsStoreAndListeners() throws InterruptedException {
        assertThat(webConfig.awaitReady(WAIT)).isTrue();
        await().atMost(WAIT).until(() -> webConfig.size() == 2);
        assertThat(webConfig.get("web", "w2")).isPresent();
        await().atMost(WAIT).until(() -> listeners.webObjects.size() >= 2);
        assertThat(listeners.webObjects).containsExactly("w1", "w2");
        assertThat(registry.watcher("web-config")).isPresent();
    }

    @Test
    void twoDeclarationsOfTheSameResourceShareOneWatcher() {
        assertThat(sameAsAppConfig).isSameAs(appConfigWatcher);
        assertThat(registry.watchers().stream().filter(w -> w == appConfigWatcher)).hasSize(1);
        assertThat(registry.watcher("sameAsAppConfig")).containsSame(appConfigWatcher);
    }

    @Test
    void aNamespacesSetIsOneWatcherPerNamespaceBehindOneMergedStore() throws InterruptedException {
        assertThat(teams.awaitReady(WAIT)).isTrue();
        assertThat(teams.list()).extracting(c -> c.getMetadata().getNamespace() + "/" + c.getMetadata().getName())
                .containsExactly("team-a/x", "team-b/y");
        assertThat(teams.get("team-b", "y")).isPresent();
        assertThat(teams.listInNamespace("team-a")).hasSize(1);
        Watcher<?> teamA = registry.watcher("teams@team-a").orElseThrow();
        Watcher<?> teamB = registry.watcher("teams@team-b").orElseThrow();
        assertThat(teamA).isNotSameAs(teamB);
        assertThat(context.getBean("watchkeeper.watcher.teams@team-a")).isSameAs(teamA);
        assertThat(teamA.snapshot().backOff()).as("the group's backoff override").contains("initial=PT2S");
        await().atMost(WAIT).until(() -> listeners.teams.size() >= 2);
        assertThat(listeners.teams).containsExactlyInAnyOrder("team-a/x", "team-b/y");
    }

    @Test
    void theEndpointShowsTheBackoffEachWatcherUses() {
        assertThat(initialInterval("teams@team-a")).as("a group member: the group's override")
                .isEqualTo(Duration.ofSeconds(2));
        assertThat(initialInterval("web-config")).as("a WatcherDeclaration bean: the backoff of its name")
                .isEqualTo(Duration.ofSeconds(5));
        assertThat(initialInterval("configmaps@rec")).as("a @Reconciler watcher: the global backoff")
                .isEqualTo(Duration.ofMillis(1500));
        assertThat(((WatcherDescriptor) endpoint.watchkeeperItem("web-config")).backoff().policy())
                .isEqualTo("exponential-jitter-reset");
    }

    private Duration initialInterval(String watcher) {
        return ((WatcherDescriptor) endpoint.watchkeeperItem(watcher)).backoff().initialInterval();
    }

    @Test
    void aReconcilersWatcherIsABeanAndTheSameInstanceTheControllerUses() {
        Object bean = context.getBean("watchkeeper.watcher.configmaps@rec");
        assertThat(registry.reconciler("rec").orElseThrow().primary().members()).singleElement().isSameAs(bean);
        assertThat(registry.watcher("configmaps@rec")).containsSame((Watcher<?>) bean);
    }

    @Test
    void everyWatcherIsInTheRegistryAndHasMetrics() {
        assertThat(registry.watchers()).extracting(Watcher::name)
                .contains("app-config", "web-config", "teams@team-a", "teams@team-b", "configmaps@rec");
        for (String name : List.of("app-config", "web-config", "teams@team-a", "configmaps@rec")) {
            assertThat(meters.find("watchkeeper.watcher.objects").tag("watcher", name).gauge()).as(name).isNotNull();
        }
        assertThat(meters.find("watchkeeper.listener.dropped").tag("watcher", "app-config")
                .tag("listener", "listeners.fail").functionCounter()).isNotNull();
    }

    static V1ConfigMap cmIn(String namespace, String name, String resourceVersion) {
        return new V1ConfigMap().apiVersion("v1").kind("ConfigMap")
                .metadata(new V1ObjectMeta().namespace(namespace).name(name).resourceVersion(resourceVersion))
                .data(Map.of("key", name));
    }

    @SpringBootApplication
    static class App {

        @Bean
        WatcherDeclaration<V1ConfigMap> webConfigDeclaration() {
            return WatcherDeclaration.of(V1ConfigMap.class).namespace("web").named("web-config");
        }

        @Bean
        WatcherDeclaration<V1ConfigMap> sameAsAppConfig() {
            return WatcherDeclaration.of(V1ConfigMap.class).namespace("default");
        }

        @Bean
        Listeners listeners() {
            return new Listeners();
        }

        @Bean
        RecReconciler recReconciler() {
            return new RecReconciler();
        }
    }

    static class Listeners {

        final List<String> appConfig = new CopyOnWriteArrayList<>();
        final List<String> webObjects = new CopyOnWriteArrayList<>();
        final List<String> teams = new CopyOnWriteArrayList<>();
        final AtomicInteger failures = new AtomicInteger();

        @WatchListener("app-config")
        void record(WatchEvent<V1ConfigMap> event) {
            appConfig.add(EventRecorder.describe(event, false));
        }

        @WatchListener("app-config")
        void fail(WatchEvent<V1ConfigMap> event) {
            failures.incrementAndGet();
            throw new IllegalStateException("this listener fails on purpose");
        }

        @WatchListener("web-config")
        void objects(V1ConfigMap configMap) {
            webObjects.add(configMap.getMetadata().getName());
        }

        @WatchListener("teams")
        void teams(WatchEvent.InitApply<V1ConfigMap> event) {
            teams.add(event.object().getMetadata().getNamespace() + "/" + event.object().getMetadata().getName());
        }
    }

    static class RecReconciler {

        @Reconciler(name = "rec", namespace = "${test.rec-namespace:rec}")
        void reconcile(V1ConfigMap configMap) {
        }
    }
}
