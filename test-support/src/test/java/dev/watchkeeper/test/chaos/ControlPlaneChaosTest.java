package dev.watchkeeper.test.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import dev.watchkeeper.internal.backoff.BackOffSettings;
import dev.watchkeeper.internal.reconcile.Reconciler;
import dev.watchkeeper.internal.reconcile.ReconcilerSettings;
import dev.watchkeeper.internal.resource.ResourceType;
import dev.watchkeeper.test.controlplane.KubeControlPlane;
import dev.watchkeeper.test.controlplane.RealKubeApi;
import dev.watchkeeper.internal.watch.InitialListStrategy;
import dev.watchkeeper.internal.watch.WatchOptions;
import dev.watchkeeper.internal.watch.WatchScope;
import dev.watchkeeper.internal.watch.Watcher;
import dev.watchkeeper.internal.watch.http.HttpWatchApi;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.KubeConfig;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The chaos schedules through {@link TlsFaultProxy} in front of the real control plane: the real watch cache,
 * bookmarks, etcd compaction and 410s, with faults the proxy injects on the wire. Outages last seconds of real time
 * and the watcher backs off on a shortened curve in real time. The end state is the in-memory suite's.
 */
@RealKubeApi
class ControlPlaneChaosTest {

    private static final ChaosSeeds SEEDS = new ChaosSeeds(ControlPlaneChaosTest.class.getSimpleName());
    private static final Duration WATCH_TIMEOUT = Duration.ofSeconds(2);
    private static final Duration IDLE_MARGIN = Duration.ofMillis(500);
    private static final FaultSchedule.Limits LIMITS = new FaultSchedule.Limits(6, 10, Duration.ofSeconds(1),
            Duration.ofSeconds(3), WATCH_TIMEOUT.plus(IDLE_MARGIN).plusMillis(500), 0.4, 50, Duration.ofMillis(5));
    private static final BackOffSettings BACK_OFF = new BackOffSettings(Duration.ofMillis(100), 2.0,
            Duration.ofSeconds(1), 0.5, Duration.ofSeconds(120), null);
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final Duration PACE = Duration.ofMillis(10);

    @TestFactory
    Stream<DynamicTest> convergesThroughAFaultInjectingTlsProxy(KubeControlPlane plane) {
        return SEEDS.tests(5, seed -> run(seed, plane));
    }

    @AfterAll
    static void summary() {
        System.out.println(SEEDS.summary());
    }

    private static ChaosSeeds.SeedRun run(long seed, KubeControlPlane plane) throws Exception {
        Random random = new Random(seed);
        String run = "cp-" + seed + "-" + Long.toHexString(System.nanoTime() & 0xffffff);
        List<String> namespaces = List.of(run + "-0", run + "-1", run + "-2");
        History history = History.draw(random, namespaces, 100 + random.nextInt(50), 400 + random.nextInt(200), run);
        FaultSchedule schedule = FaultSchedule.draw(random, history.initial(), history.changes().size(), LIMITS);
        InitialListStrategy strategy = InitialListStrategy.values()[random.nextInt(InitialListStrategy.values().length)];
        WatchOptions options = WatchOptions.defaults().withInitialList(strategy).withPageSize(20 + random.nextInt(60))
                .withTimeout(WATCH_TIMEOUT).withIdleMargin(IDLE_MARGIN);
        CoreV1Api direct = new CoreV1Api(plane.apiClient());
        for (String namespace : namespaces) {
            direct.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(namespace))).execute();
        }
        History.Writer writer = writer(direct);
        Set<Thread> baseline = EndState.threads();
        ProxyCertificate certificate = ProxyCertificate.generate();
        TlsFaultProxy proxy = new TlsFaultProxy(certificate, plane.apiClient().getHttpClient(),
                plane.apiClient().getBasePath());
        Watcher<V1ConfigMap> watcher = null;
        Reconciler<V1ConfigMap> loop = null;
        ReconcileLog log = new ReconcileLog(seed);
        long bound;
        try {
            history.writeInitial(writer);
            watcher = HttpWatchApi.watcher(throughProxy(plane, proxy, certificate), ResourceType.of(V1ConfigMap.class))
                    .scope(WatchScope.allNamespaces().withLabelSelector(history.selector()))
                    .options(options)
                    .backOff(BACK_OFF)
                    .build();
            watcher.addListener(log);
            loop = Reconciler.builder("chaos", watcher, log)
                    .settings(ReconcilerSettings.defaults().withConcurrency(4)).build();
            long started = System.nanoTime();
            watcher.start();
            loop.start();
            // Paced so the history spans several watch timeouts: written at full speed, it would be over in about as
            // long as one outage.
            history.replay(schedule, writer, injector(plane, proxy), () -> LockSupport.parkNanos(PACE.toNanos()));
            EndState.assertConverged(watcher, loop, log, () -> selected(direct, history), WAIT);
            bound = schedule.requestBound(history, options, Duration.ofNanos(System.nanoTime() - started), BACK_OFF);
            assertThat((long) proxy.requestCount()).as("requests, for faults " + schedule.faults())
                    .isLessThanOrEqualTo(bound);
        } finally {
            if (loop != null) {
                loop.close(Duration.ofSeconds(5));
            }
            if (watcher != null) {
                watcher.close();
            }
            proxy.close();
            for (String namespace : namespaces) {
                direct.deleteNamespace(namespace).execute();
            }
        }
        EndState.awaitThreadsBackTo(baseline, Duration.ofSeconds(10));
        return new ChaosSeeds.SeedRun(schedule, history.objects(), history.changes().size(), proxy.requestCount(),
                bound, log.watcherErrors());
    }

    /** The admin kubeconfig's credentials, sent to the proxy, which is trusted as the only CA. */
    static ApiClient throughProxy(KubeControlPlane plane, TlsFaultProxy proxy, ProxyCertificate certificate)
            throws Exception {
        try (Reader reader = Files.newBufferedReader(plane.kubeconfig())) {
            return ClientBuilder.kubeconfig(KubeConfig.loadKubeConfig(reader))
                    .setBasePath(proxy.url())
                    .setCertificateAuthority(certificate.pem().getBytes(StandardCharsets.US_ASCII))
                    .setReadTimeout(Duration.ZERO)
                    .build();
        }
    }

    private static FaultInjector injector(KubeControlPlane plane, TlsFaultProxy proxy) {
        return new FaultInjector() {
            @Override
            public void inject(Fault fault) {
                switch (fault.kind()) {
                    case INTERNAL_ERROR -> proxy.failRequests(fault.requests(), 500);
                    case UNAVAILABLE -> proxy.failRequests(fault.requests(), 503);
                    case THROTTLED -> proxy.throttle(fault.requests(), fault.duration());
                    case EXPIRED_AT_WATCH_START -> proxy.expireWatchStarts(fault.requests());
                    case COMPACTION -> plane.compact();
                    case SLOW_BODIES -> proxy.slowBodies(fault.duration());
                    case OUTAGE -> proxy.outage(fault.duration());
                    default -> proxy.disruptWatches(fault.kind(), fault.duration());
                }
            }

            @Override
            public void endSlowBodies() {
                proxy.slowBodies(Duration.ZERO);
            }

            @Override
            public void stopFaults() {
                proxy.stopFaults();
            }
        };
    }

    private static List<V1ConfigMap> selected(CoreV1Api direct, History history) {
        try {
            return direct.listConfigMapForAllNamespaces().labelSelector(history.selector()).execute().getItems();
        } catch (ApiException e) {
            throw new IllegalStateException("cannot list the server's objects: " + e.getCode(), e);
        }
    }

    private static History.Writer writer(CoreV1Api api) {
        return new History.Writer() {
            @Override
            public void create(V1ConfigMap object) throws ApiException {
                api.createNamespacedConfigMap(object.getMetadata().getNamespace(), object).execute();
            }

            @Override
            public void replace(V1ConfigMap object) throws ApiException {
                api.replaceNamespacedConfigMap(object.getMetadata().getName(), object.getMetadata().getNamespace(),
                        object).execute();
            }

            @Override
            public void delete(String namespace, String name) throws ApiException {
                api.deleteNamespacedConfigMap(name, namespace).execute();
            }
        };
    }
}
