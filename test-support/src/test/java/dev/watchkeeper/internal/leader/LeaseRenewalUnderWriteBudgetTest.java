package dev.watchkeeper.internal.leader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.watchkeeper.internal.reconcile.Reconciler;
import dev.watchkeeper.internal.watch.Watcher;
import dev.watchkeeper.internal.watch.http.HttpWatchApi;
import dev.watchkeeper.internal.reconcile.RateLimit;
import dev.watchkeeper.reconcile.ReconcileResult;
import dev.watchkeeper.internal.reconcile.ReconcilerSettings;
import dev.watchkeeper.internal.resource.ResourceType;
import dev.watchkeeper.test.apiserver.InMemoryApiServer;
import dev.watchkeeper.internal.watch.WatchScope;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Reconciles that spend their write budget wait for tokens inside the reconcile, and Lease renewals, on a client of
 * their own, go on at their retry period meanwhile: the budget is the reconciles' alone. Real time, as in production:
 * the budget and the elector each wait on the system clock.
 */
class LeaseRenewalUnderWriteBudgetTest {

    private static final int OBJECTS = 20;
    private static final double WRITES_PER_SECOND = 4;
    private static final Duration RETRY = Duration.ofSeconds(1);
    /** What a renewal may take beyond its retry period on a busy machine: a request, not a wait for a token. */
    private static final Duration SLACK = Duration.ofMillis(500);

    private final InMemoryApiServer server = new InMemoryApiServer().start();
    private final List<AutoCloseable> started = new ArrayList<>();

    @AfterEach
    void stop() throws Exception {
        for (int i = started.size() - 1; i >= 0; i--) { // the reconciler before its watcher
            started.get(i).close();
        }
        server.close();
    }

    @Test
    void writesThrottledByTheBudgetNeverDelayARenewalPastTheRetryPeriod() {
        for (int i = 0; i < OBJECTS; i++) {
            server.create(new V1ConfigMap().metadata(new V1ObjectMeta().name("cm-" + i).namespace("default")));
        }
        List<Long> renewals = new CopyOnWriteArrayList<>();
        AtomicInteger stoppedLeading = new AtomicInteger();
        LeaderElector elector = leader(renewals, stoppedLeading);
        await().atMost(Duration.ofSeconds(10)).until(elector::isLeader);

        List<Long> writes = new CopyOnWriteArrayList<>();
        reconcileWithBudget(writes);
        await().atMost(Duration.ofSeconds(30)).until(() -> writes.size() == OBJECTS);

        long first = writes.get(0);
        long last = writes.get(writes.size() - 1);
        assertThat(Duration.ofNanos(last - first)).as("the budget spread the writes: %s at %s/s after a burst of 1",
                OBJECTS, WRITES_PER_SECOND).isGreaterThan(Duration.ofMillis(3_500));
        List<Long> during = renewals.stream().filter(at -> at >= first && at <= last).toList();
        assertThat(during).as("renewals while the writes waited for tokens").hasSizeGreaterThanOrEqualTo(3);
        List<Long> around = renewals.stream().filter(at -> at >= first - RETRY.toNanos() - SLACK.toNanos()
                && at <= last + RETRY.toNanos() + SLACK.toNanos()).toList();
        for (int i = 1; i < around.size(); i++) {
            assertThat(Duration.ofNanos(around.get(i) - around.get(i - 1))).as("renewal %d after the one before", i)
                    .isLessThanOrEqualTo(RETRY.plus(SLACK));
        }
        assertThat(stoppedLeading).hasValue(0);
        assertThat(elector.isLeader()).isTrue();
    }

    /** An elector renewing every second through a client of its own, recording when each renewal was answered. */
    private LeaderElector leader(List<Long> renewals, AtomicInteger stoppedLeading) {
        ApiClient leases = server.apiClient();
        leases.setHttpClient(leases.getHttpClient().newBuilder().addInterceptor(chain -> {
            var response = chain.proceed(chain.request());
            if (chain.request().method().equals("PUT") && response.isSuccessful()) {
                renewals.add(System.nanoTime());
            }
            return response;
        }).build());
        LeaderElector elector = LeaderElector.builder(leases, LeaderElectionSettings.of("app-leader", "default", "a")
                .withTiming(Duration.ofSeconds(3), Duration.ofSeconds(2), RETRY)).build();
        elector.addListener(new LeadershipListener() {
            @Override
            public void onStartedLeading() {
            }

            @Override
            public void onStoppedLeading() {
                stoppedLeading.incrementAndGet();
            }
        });
        started.add(elector::close);
        elector.start();
        return elector;
    }

    /** Every reconcile applies a label through its context, on a budget of 4 writes a second after a burst of 1. */
    private void reconcileWithBudget(List<Long> writes) {
        ResourceType<V1ConfigMap> type = ResourceType.of(V1ConfigMap.class).withPlural("configmaps", true);
        ApiClient client = server.apiClient();
        Watcher<V1ConfigMap> configMaps = HttpWatchApi.watcher(client, type).scope(WatchScope.namespace("default"))
                .build();
        Reconciler<V1ConfigMap> reconciler = Reconciler.builder("writer", configMaps, (object, context) -> {
            context.apply(new V1ConfigMap().apiVersion("v1").kind("ConfigMap").metadata(new V1ObjectMeta()
                    .name(object.getMetadata().getName()).namespace("default").labels(Map.of("reconciled", "yes"))));
            writes.add(System.nanoTime());
            return ReconcileResult.done();
        }).apiClient(client).settings(ReconcilerSettings.defaults().withConcurrency(8)
                .withWriteBudget(new RateLimit(WRITES_PER_SECOND, 1))).build();
        started.add(configMaps::close);
        started.add(reconciler::close);
        configMaps.start();
        reconciler.start();
    }
}
