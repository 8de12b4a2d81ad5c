package dev.watchkeeper.internal.registry;

import static dev.watchkeeper.reconcile.TestObjects.configMap;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.watchkeeper.internal.backoff.BackOffSettings;
import dev.watchkeeper.internal.reconcile.Reconciler;
import dev.watchkeeper.internal.store.IndexStats;
import dev.watchkeeper.internal.reconcile.ReconcilerSettings;
import dev.watchkeeper.reconcile.ReconcileResult;
import dev.watchkeeper.reconcile.Trigger;
import dev.watchkeeper.internal.resource.ResourceType;
import dev.watchkeeper.internal.watch.ListSemantics;
import dev.watchkeeper.internal.watch.WatchOptions;
import dev.watchkeeper.internal.watch.WatchScope;
import dev.watchkeeper.internal.watch.Watcher;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Secret;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class WatchkeeperRegistryTest {

    @BeforeAll
    static void pollQuickly() {
        Awaitility.setDefaultPollInterval(Duration.ofMillis(5));
    }

    static final ResourceType<V1ConfigMap> CONFIG_MAPS = ResourceType.of(V1ConfigMap.class);
    static final ResourceType<V1Secret> SECRETS = ResourceType.of(V1Secret.class);

    private final FakeWatcherFactory fakes = new FakeWatcherFactory();
    private final WatchkeeperRegistry registry = new WatchkeeperRegistry(RegistryServices.of(null), fakes);

    @AfterEach
    void stop() {
        registry.stop();
    }

    @Test
    void equalDeclarationsShareOneWatcherAndDifferentOnesDoNot() {
        Watcher<V1ConfigMap> first = registry.watcher(WatcherSpec.of(CONFIG_MAPS, WatchScope.allNamespaces()));
        Watcher<V1ConfigMap> second = registry.watcher(WatcherSpec.of(CONFIG_MAPS, WatchScope.allNamespaces()));
        Watcher<V1ConfigMap> inDefault = registry.watcher(WatcherSpec.of(CONFIG_MAPS, WatchScope.namespace("default")));
        Watcher<V1ConfigMap> selected = registry.watcher(
                WatcherSpec.of(CONFIG_MAPS, WatchScope.allNamespaces().withLabelSelector("app=web")));

        assertThat(second).isSameAs(first);
        assertThat(inDefault).isNotSameAs(first);
        assertThat(selected).isNotSameAs(first);
        assertThat(registry.watchers()).hasSize(3);
        assertThat(first.name()).isEqualTo("configmaps@all");
        assertThat(inDefault.name()).isEqualTo("configmaps@default");
        assertThat(registry.watcher("configmaps@default")).containsSame(inDefault);
    }

    @Test
    void aNamedDeclarationOfAnExistingWatcherSharesItUnderBothNames() {
        Watcher<V1ConfigMap> derived = registry.watcher(WatcherSpec.of(CONFIG_MAPS, WatchScope.allNamespaces()));
        Watcher<V1ConfigMap> named = registry.watcher(
                WatcherSpec.of(CONFIG_MAPS, WatchScope.allNamespaces()).named("all-config"));

        assertThat(named).isSameAs(derived);
        assertThat(registry.watcher("all-config")).containsSame(derived);
    }

    @Test
    void aSharedWatchersStoreKeepsTheIndexesOfEveryDeclarationOfIt() {
        fakes.api(CONFIG_MAPS).listing(configMap("a", "1"), configMap("b", "2"));
        Watcher<V1ConfigMap> byRv = registry.watcher(WatcherSpec.of(CONFIG_MAPS, WatchScope.allNamespaces())
                .index("rv", cm -> List.of(cm.getMetadata().getResourceVersion())));
        Watcher<V1ConfigMap> byName = registry.watcher(WatcherSpec.of(CONFIG_MAPS, WatchScope.allNamespaces())
                .index("name", cm -> List.of(cm.getMetadata().getName())));
        registry.start();

        assertThat(byName).isSameAs(byRv);
        await().until(() -> byRv.store().size() == 2);
        assertThat(byRv.store().listByIndex("rv", "2")).extracting(cm -> cm.getMetadata().getName())
                .containsExactly("b");
        assertThat(byRv.store().listByIndex("name", "a")).hasSize(1);
        assertThat(byRv.indexStats()).extracting(IndexStats::name)
                .containsExactly("namespace", "owner", "label", "rv", "name");
        assertThatThrownBy(() -> registry.watcher(WatcherSpec.of(CONFIG_MAPS, WatchScope.allNamespaces())
                .index("name", cm -> List.of()))).hasMessageContaining("two indexes named 'name'");
        assertThatThrownBy(() -> WatcherSpec.of(CONFIG_MAPS).index("x", cm -> List.of())
                .index("x", cm -> List.of())).hasMessageContaining("share a name");
    }

    @Test
    void settingsThatDifferByNameMakeSeparateWatchers() {
        WatchkeeperRegistry tuned = new WatchkeeperRegistry(new RegistryServices(null, null,
                new WatchkeeperSettings() {
                    @Override
                    public BackOffSettings watcherBackOff(String watcherName) {
                        return watcherName.equals("slow") ? BackOffSettings.clientGo()
                                .withMaxElapsedTime(Duration.ofMinutes(1)) : BackOffSettings.clientGo();
                    }
                }, null, null, null), fakes);

        Watcher<V1ConfigMap> plain = tuned.watcher(WatcherSpec.of(CONFIG_MAPS, WatchScope.allNamespaces()));
        Watcher<V1ConfigMap> slow = tuned.watcher(
                WatcherSpec.of(CONFIG_MAPS, WatchScope.allNamespaces()).named("slow"));

        assertThat(slow).isNotSameAs(plain);
    }

    @Test
    void listSemanticsArePartOfTheSharingIdentity() {
        WatchOptions cached = WatchOptions.defaults().withListSemantics(ListSemantics.CACHED);
        Watcher<V1ConfigMap> consistent = registry.watcher(WatcherSpec.of(CONFIG_MAPS, WatchScope.allNamespaces()));
        Watcher<V1ConfigMap> fromCache = registry.watcher(
                WatcherSpec.of(CONFIG_MAPS, WatchScope.allNamespaces()).options(cached).named("from-cache"));
        Watcher<V1ConfigMap> sameCached = registry.watcher(
                WatcherSpec.of(CONFIG_MAPS, WatchScope.allNamespaces()).options(cached).named("from-cache"));

        assertThat(fromCache).isNotSameAs(consistent).isSameAs(sameCached);
    }

    @Test
    void oneNameForTwoDifferentWatchersFailsNamingBoth() {
        registry.watcher(WatcherSpec.of(CONFIG_MAPS, WatchScope.namespace("a")).named("config"));

        assertThatThrownBy(() -> registry.watcher(WatcherSpec.of(SECRETS, WatchScope.namespace("a")).named("config")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("'config'")
                .hasMessageContaining("watcher of v1/ConfigMap in namespace a")
                .hasMessageContaining("watcher of v1/Secret in namespace a");
    }

    @Test
    void aGroupIsOneWatcherPerMemberKnownTogetherByItsName() {
        List<Watcher<V1ConfigMap>> members = registry.watcherGroup("teams", List.of(
                WatcherSpec.of(CONFIG_MAPS, WatchScope.namespace("a")).named("teams@a"),
                WatcherSpec.of(CONFIG_MAPS, WatchScope.namespace("b")).named("teams@b")));

        assertThat(members).extracting(Watcher::name).containsExactly("teams@a", "teams@b");
        assertThat(registry.watchersNamed("teams")).containsExactlyElementsOf(members);
        assertThat(registry.watchersNamed("teams@b")).containsExactly(members.get(1));
        assertThat(registry.watcherGroup("teams", List.of(
                WatcherSpec.of(CONFIG_MAPS, WatchScope.namespace("a")).named("teams@a"),
                WatcherSpec.of(CONFIG_MAPS, WatchScope.namespace("b")).named("teams@b"))))
                .as("asked again").containsExactlyElementsOf(members);
        assertThatThrownBy(() -> registry.watcher(WatcherSpec.of(SECRETS, WatchScope.allNamespaces())
                .named("teams"))).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("watcher group teams");
    }

    @Test
    void aDeclarationsOwnBackOffMakesItsIdentity() {
        Watcher<V1ConfigMap> plain = registry.watcher(WatcherSpec.of(CONFIG_MAPS, WatchScope.allNamespaces()));
        Watcher<V1ConfigMap> same = registry.watcher(WatcherSpec.of(CONFIG_MAPS, WatchScope.allNamespaces())
                .backOff(BackOffSettings.clientGo()));
        Watcher<V1ConfigMap> patient = registry.watcher(WatcherSpec.of(CONFIG_MAPS, WatchScope.allNamespaces())
                .backOff(BackOffSettings.clientGo().withMaxElapsedTime(Duration.ofMinutes(1))).named("patient"));

        assertThat(same).isSameAs(plain);
        assertThat(patient).isNotSameAs(plain);
    }

    @Test
    void aReconcilerNamedLikeAWatcherFailsNamingBoth() {
        registry.watcher(WatcherSpec.of(SECRETS, WatchScope.allNamespaces()));

        assertThatThrownBy(() -> registry.registerReconciler(declaration("secrets@all")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("watcher of v1/Secret in all namespaces")
                .hasMessageContaining("reconciler secrets@all (test declaration)");
    }

    @Test
    void startsWatchersThenControllersAndStopsEverything() {
        fakes.api(CONFIG_MAPS).listing(configMap("a", "1"));
        List<String> reconciled = new CopyOnWriteArrayList<>();
        Reconciler<V1ConfigMap> reconciler = registry.registerReconciler(new ReconcilerDeclaration<>("mirror",
                WatcherSpec.of(CONFIG_MAPS, WatchScope.allNamespaces()), List.of(),
                (object, context) -> {
                    reconciled.add(object.getMetadata().getName());
                    return ReconcileResult.done();
                }, 2, Set.of(Trigger.ALL), null, "test declaration"));

        registry.start();

        await().until(() -> reconciled.equals(List.of("a")));
        assertThat(registry.isRunning()).isTrue();
        assertThat(registry.reconciler("mirror")).containsSame(reconciler);
        assertThat(reconciler.settings().concurrency()).isEqualTo(2);

        Watcher<V1Secret> late = registry.watcher(WatcherSpec.of(SECRETS, WatchScope.allNamespaces()));
        assertThat(late.isRunning()).isTrue();

        registry.stop();
        assertThat(reconciler.isRunning()).isFalse();
        assertThat(registry.watchers()).noneMatch(Watcher::isRunning);
        assertThat(Thread.getAllStackTraces().keySet()).noneMatch(t -> t.getName().startsWith("watchkeeper-"));
    }

    @Test
    void settingsOverrideAnnotationConcurrencyAndDeclaredTriggersApply() {
        WatchkeeperRegistry tuned = new WatchkeeperRegistry(new RegistryServices(null, null,
                new WatchkeeperSettings() {
                    @Override
                    public ReconcilerSettings reconciler(String reconcilerName, int annotationConcurrency,
                            Duration annotationDebounce) {
                        return ReconcilerSettings.defaults().withConcurrency(7);
                    }
                }, null, null, null), fakes);

        Reconciler<V1ConfigMap> reconciler = tuned.registerReconciler(new ReconcilerDeclaration<>("x",
                WatcherSpec.of(CONFIG_MAPS, WatchScope.allNamespaces()), List.of(),
                (object, context) -> ReconcileResult.done(), 1, Set.of(Trigger.GENERATION), null, "test"));

        assertThat(reconciler.settings().concurrency()).isEqualTo(7);
        assertThat(reconciler.settings().triggers()).containsExactly(Trigger.GENERATION);
    }

    @Test
    void aDeclaredDebounceReachesTheReconcilersSettings() {
        Reconciler<V1ConfigMap> reconciler = registry.registerReconciler(new ReconcilerDeclaration<>("debounced",
                WatcherSpec.of(CONFIG_MAPS, WatchScope.allNamespaces()), List.of(),
                (object, context) -> ReconcileResult.done(), 1, Set.of(Trigger.ALL), null, "test",
                Duration.ofSeconds(2), List.of(), null));

        assertThat(reconciler.settings().debounce()).isEqualTo(Duration.ofSeconds(2));
        assertThat(registry.registerReconciler(declaration("plain")).settings().debounce()).isZero();
    }

    @Test
    void aWatcherReadOnlyForATypeOwnedWhenServedHoldsNothingUpUntilItListsAndAStrictOwnerWaitsForItAgain() {
        fakes.api(CONFIG_MAPS).listing();
        fakes.api(SECRETS).holdList(); // as a watcher does while the server does not serve its type
        Reconciler<V1ConfigMap> reconciler = registry.registerReconciler(new ReconcilerDeclaration<>("gadgets",
                WatcherSpec.of(CONFIG_MAPS, WatchScope.allNamespaces()),
                List.of(SecondaryDeclaration.ownedWhenServed(WatcherSpec.of(SECRETS, WatchScope.allNamespaces()))),
                (object, context) -> ReconcileResult.done(), 1, Set.of(Trigger.ALL), null, "test"));
        registry.start();
        Watcher<V1Secret> secrets = registry.watcher(WatcherSpec.of(SECRETS, WatchScope.allNamespaces()));
        Watcher<V1ConfigMap> configMaps = registry.watcher(
                WatcherSpec.of(CONFIG_MAPS, WatchScope.allNamespaces()));

        await().until(reconciler::isReady);
        assertThat(registry.awaitsServing(secrets)).isTrue();
        assertThat(registry.awaitsServing(configMaps)).isFalse();

        // Another reconciler that needs the same watcher from the start: nobody may skip it any more.
        registry.registerReconciler(new ReconcilerDeclaration<>("strict",
                WatcherSpec.of(CONFIG_MAPS, WatchScope.allNamespaces()),
                List.of(SecondaryDeclaration.owned(WatcherSpec.of(SECRETS, WatchScope.allNamespaces()))),
                (object, context) -> ReconcileResult.done(), 1, Set.of(Trigger.ALL), null, "test"));
        assertThat(registry.awaitsServing(secrets)).isFalse();
        fakes.api(SECRETS).releaseList();
        await().until(() -> secrets.store().ready().isDone());
    }

    @Test
    void onlyAnOwnedSecondaryCanWaitForItsTypeToBeServed() {
        assertThatThrownBy(() -> new SecondaryDeclaration<>(WatcherSpec.of(SECRETS, WatchScope.allNamespaces()),
                secret -> List.of(), true)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("only an owned secondary can wait for its type to be served");
    }

    private ReconcilerDeclaration<V1Secret> declaration(String name) {
        return new ReconcilerDeclaration<>(name, WatcherSpec.of(SECRETS, WatchScope.allNamespaces()),
                List.of(), (object, context) -> ReconcileResult.done(), 1, Set.of(Trigger.ALL), null,
                "test declaration");
    }
}
