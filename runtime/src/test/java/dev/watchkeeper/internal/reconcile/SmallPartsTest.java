package dev.watchkeeper.internal.reconcile;

import dev.watchkeeper.reconcile.FakeWatchApi;
import dev.watchkeeper.reconcile.ManualTime;
import dev.watchkeeper.reconcile.ReconcileResult;
import dev.watchkeeper.reconcile.ReconcilerSnapshot;
import dev.watchkeeper.reconcile.Trigger;
import dev.watchkeeper.reconcile.TriggerFilter;
import static dev.watchkeeper.reconcile.TestObjects.configMap;
import static dev.watchkeeper.reconcile.TestObjects.secretOwnedBy;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.watchkeeper.internal.backoff.BackOffSettings;
import dev.watchkeeper.internal.resource.ResourceType;
import dev.watchkeeper.internal.events.Occurrence;
import dev.watchkeeper.internal.store.CacheStore;
import dev.watchkeeper.store.CachedObject;
import dev.watchkeeper.store.ObjectKey;
import dev.watchkeeper.internal.watch.Watcher;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.retry.backoff.BackOffContext;
import org.springframework.retry.backoff.BackOffPolicy;
import org.springframework.retry.backoff.FixedBackOffPolicy;

/** The reconciler's small parts: per-object backoff, owner mapping, trigger filters, events, resync. */
@Timeout(10)
class SmallPartsTest {

    @Test
    void perObjectBackOffFollowsClientGosCurvePerKeyAndResets() {
        ObjectBackOff<String> backOff = new ObjectBackOff<>(ReconcilerSettings.defaultBackOffPolicy());

        assertThat(backOff.next("a")).isEqualTo(Duration.ofMillis(5));
        assertThat(backOff.next("a")).isEqualTo(Duration.ofMillis(10));
        assertThat(backOff.next("b")).isEqualTo(Duration.ofMillis(5));
        assertThat(backOff.next("a")).isEqualTo(Duration.ofMillis(20));
        backOff.forget("a");
        assertThat(backOff.next("a")).isEqualTo(Duration.ofMillis(5));
    }

    @Test
    void perObjectBackOffIsCappedAt1000Seconds() {
        ObjectBackOff<String> backOff = new ObjectBackOff<>(ReconcilerSettings.defaultBackOffPolicy());
        Duration last = null;
        for (int i = 0; i < 30; i++) {
            last = backOff.next("a");
        }
        assertThat(last).isEqualTo(Duration.ofSeconds(1000));
    }

    @Test
    void aPolicyThatCannotBeScheduledIsRejectedAtOnce() {
        BackOffPolicy sleepsItself = new BackOffPolicy() {
            @Override
            public BackOffContext start(org.springframework.retry.RetryContext context) {
                return null;
            }

            @Override
            public void backOff(BackOffContext backOffContext) {
            }
        };

        assertThatThrownBy(() -> ReconcilerSettings.defaults().withBackOffPolicy(sleepsItself))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must be a SleepingBackOffPolicy");
    }

    @Test
    void backOffSettingsGiveThePerObjectNumbers() {
        ObjectBackOff<String> backOff = new ObjectBackOff<>(ReconcilerSettings.defaults()
                .withBackOff(new BackOffSettings(Duration.ofMillis(100), 3.0, Duration.ofMillis(500), 0.0,
                        Duration.ofMinutes(2), null))
                .backOffPolicy());

        assertThat(backOff.next("a")).isEqualTo(Duration.ofMillis(100));
        assertThat(backOff.next("a")).isEqualTo(Duration.ofMillis(300));
        assertThat(backOff.next("a")).isEqualTo(Duration.ofMillis(500));
    }

    @Test
    void ownerReferencesMapByGroupAndKindOfTheControllerOwner() {
        CacheStore<V1ConfigMap> store = new CacheStore<>("test", true);
        OwnerReferenceMapper<V1Secret> mapper = new OwnerReferenceMapper<>(ResourceType.of(V1ConfigMap.class), store);

        assertThat(mapper.map(secretOwnedBy("s", "a", true))).containsExactly(new ObjectKey("default", "a"));
        assertThat(mapper.map(secretOwnedBy("s", "a", false))).isEmpty();
        V1Secret ownedByADeployment = secretOwnedBy("s", "a", true);
        ownedByADeployment.getMetadata().getOwnerReferences().get(0).apiVersion("apps/v1").kind("Deployment");
        assertThat(mapper.map(ownedByADeployment)).isEmpty();
    }

    @Test
    void ownerReferencesOfACustomTypeWithoutKindMatchWhatThePrimaryStoreHolds() {
        CacheStore<DynamicKubernetesObject> store = new CacheStore<>("test", true);
        DynamicKubernetesObject generator = new DynamicKubernetesObject();
        generator.setApiVersion("samples.watchkeeper.dev/v1");
        generator.setKind("Generator");
        generator.setMetadata(new io.kubernetes.client.openapi.models.V1ObjectMeta().namespace("default").name("g"));
        store.startRelist();
        store.apply(CachedObject.of(generator));
        OwnerReferenceMapper<V1Secret> mapper = new OwnerReferenceMapper<>(
                ResourceType.dynamic("samples.watchkeeper.dev", "v1", "generators", true), store);
        V1Secret owned = new V1Secret().metadata(new io.kubernetes.client.openapi.models.V1ObjectMeta()
                .namespace("default").name("s").addOwnerReferencesItem(new V1OwnerReference()
                        .apiVersion("samples.watchkeeper.dev/v1beta1").kind("Generator").name("g").controller(true)));

        assertThat(mapper.map(owned)).containsExactly(new ObjectKey("default", "g"));
        owned.getMetadata().getOwnerReferences().get(0).name("missing");
        assertThat(mapper.map(owned)).isEmpty();
    }

    @Test
    void triggerFiltersCompareWithWhatWasSeenBefore() {
        TriggerFilter<V1ConfigMap> generation = TriggerFilter.generationChanged();
        TriggerFilter<V1ConfigMap> labels = TriggerFilter.labelsOrAnnotationsChanged();
        V1ConfigMap before = configMap("a", "1", 1);
        V1ConfigMap statusOnly = configMap("a", "2", 1);
        V1ConfigMap relabelled = configMap("a", "3", 1);
        relabelled.getMetadata().labels(Map.of("app", "web"));

        assertThat(generation.shouldReconcile(null, before)).isTrue();
        assertThat(generation.shouldReconcile(before, statusOnly)).isFalse();
        assertThat(generation.shouldReconcile(before, configMap("a", "2", 2))).isTrue();
        assertThat(labels.shouldReconcile(before, statusOnly)).isFalse();
        assertThat(labels.shouldReconcile(before, relabelled)).isTrue();
        assertThat(ReconcilerSettings.defaults().withTriggers(Trigger.ALL).<V1ConfigMap>triggerFilter()).isNull();
    }

    @Test
    void eventsAreAboutThePrimary() {
        V1ConfigMap object = configMap("a", "7");
        object.getMetadata().uid("uid-a");
        DefaultReconcileContext context = new DefaultReconcileContext("mirror", ObjectKey.of(object), 1, null,
                ResourceType.of(V1ConfigMap.class), object, Map.of(), new ManualTime());

        assertThat(context.regarding())
                .isEqualTo(new Occurrence.Regarding("v1", "ConfigMap", object.getMetadata().getNamespace(), "a",
                        "uid-a"));
    }

    @Test
    void anEventWithoutARecorderIsLoggedNotThrown() {
        V1ConfigMap object = configMap("a", "7");
        ApiClient unreachable = new ApiClient().setBasePath("http://127.0.0.1:1");
        DefaultReconcileContext context = new DefaultReconcileContext("mirror", ObjectKey.of(object), 1, unreachable,
                ResourceType.of(V1ConfigMap.class), object, Map.of(), new ManualTime());

        context.publishEvent("Normal", "Synced", "ok");
        assertThatThrownBy(() -> context.store(V1Secret.class)).hasMessageContaining("watches no");
    }

    @Test
    void ownedIsWhatTheReconciledObjectControlsReadFromTheOwnerIndex() {
        V1ConfigMap primary = configMap("a", "7");
        primary.getMetadata().uid("uid-a");
        CacheStore<V1Secret> secrets = new CacheStore<>("secrets", true);
        secrets.apply(CachedObject.of(secretOwnedBy("z-child", "a", true)));
        secrets.apply(CachedObject.of(secretOwnedBy("b-child", "a", true)));
        secrets.apply(CachedObject.of(secretOwnedBy("not-controlled", "a", false)));
        secrets.apply(CachedObject.of(secretOwnedBy("someone-elses", "b", true)));
        DefaultReconcileContext context = new DefaultReconcileContext("mirror", ObjectKey.of(primary), 1, null,
                ResourceType.of(V1ConfigMap.class), primary, Map.of(V1Secret.class, secrets), new ManualTime());

        assertThat(context.owned(V1Secret.class)).extracting(secret -> secret.getMetadata().getName())
                .containsExactly("b-child", "z-child");
        assertThatThrownBy(() -> context.owned(V1ConfigMap.class)).hasMessageContaining("watches no");
        primary.getMetadata().uid(null);
        assertThat(context.owned(V1Secret.class)).as("an object without uid controls nothing").isEmpty();
    }

    @Test
    void aBackoffPolicyOfOnesOwnIsDescribedByItselfWithoutNumbers() {
        FixedBackOffPolicy policy = new FixedBackOffPolicy();

        ReconcilerSnapshot.BackOff backOff = ReconcilerSettings.describe(policy);

        assertThat(backOff.policy()).isEqualTo(policy.toString());
        assertThat(backOff.initialInterval()).isNull();
        assertThat(backOff.multiplier()).isNull();
    }

    @Test
    void periodicResyncReconcilesEveryObjectAgain() {
        ResourceType<V1ConfigMap> type = ResourceType.of(V1ConfigMap.class).withPlural("configmaps", true);
        Watcher<V1ConfigMap> watcher = Watcher.builder(new FakeWatchApi<>(type).listing(configMap("a", "1")), type)
                .build();
        AtomicInteger reconciles = new AtomicInteger();
        Reconciler<V1ConfigMap> reconciler = Reconciler.builder("resync", watcher, (object, context) -> {
            reconciles.incrementAndGet();
            return ReconcileResult.done();
        }).settings(ReconcilerSettings.defaults().withResyncPeriod(Duration.ofMillis(20))).build();
        try {
            watcher.start();
            reconciler.start();

            await().until(() -> reconciles.get() >= 3);
            assertThat(reconciler.isRunning()).isTrue();
            assertThat(Thread.getAllStackTraces().keySet()).extracting(Thread::getName)
                    .as("resync runs through the queue, on no thread of its own").noneMatch(n -> n.endsWith("-resync"));
        } finally {
            reconciler.close(Duration.ofSeconds(1));
            watcher.close();
        }
        assertThat(reconciler.isRunning()).isFalse();
    }
}
