package dev.watchkeeper.test.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.watchkeeper.internal.reconcile.Reconciler;
import dev.watchkeeper.reconcile.ReconcilerSnapshot;
import dev.watchkeeper.store.ObjectKey;
import dev.watchkeeper.internal.watch.Watcher;
import dev.watchkeeper.watch.WatcherPhase;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;

/** The checks every chaos run ends with, once the history is over and the faults have stopped. */
final class EndState {

    private EndState() {
    }

    /**
     * The end state of a seed: the store equal to the server's objects, every live object reconciled at its final
     * version with none of the faults {@link #assertReconciled} looks for, and the watcher watching.
     */
    static void assertConverged(Watcher<V1ConfigMap> watcher, Reconciler<V1ConfigMap> loop, ReconcileLog log,
            Supplier<List<V1ConfigMap>> server, Duration wait) {
        Map<ObjectKey, Long> live = awaitStoreEqualsServer(watcher, server, wait);
        assertReconciled(loop, log, live, wait);
        assertWatching(watcher);
    }

    /** Waits until the watcher's store holds exactly the server's objects, by key and resourceVersion. */
    private static Map<ObjectKey, Long> awaitStoreEqualsServer(Watcher<V1ConfigMap> watcher,
            Supplier<List<V1ConfigMap>> server, Duration wait) {
        await("the store to equal the server's objects").atMost(wait).pollInterval(Duration.ofMillis(20))
                .untilAsserted(() -> assertThat(versions(watcher.store().list())).isEqualTo(versions(server.get())));
        return versions(server.get());
    }

    /**
     * Waits until every live object was reconciled at its final resourceVersion and the controller is idle; then
     * checks that no reconcile overlapped another of its key, none went back to an older version, none was handed an
     * object after the watcher had delivered its deletion, and none happens any more.
     */
    private static void assertReconciled(Reconciler<V1ConfigMap> loop, ReconcileLog log, Map<ObjectKey, Long> live,
            Duration wait) {
        await("every live object reconciled at its final resourceVersion").atMost(wait)
                .pollInterval(Duration.ofMillis(20)).untilAsserted(() -> {
                    Map<ObjectKey, Long> last = log.lastVersions();
                    assertThat(live.entrySet().stream().filter(e -> !e.getValue().equals(last.get(e.getKey())))
                            .map(Object::toString).limit(10).toList()).isEmpty();
                    assertQuiet(loop, log);
                });
        assertNoReconcileAfterSettling(loop, log, live, wait);
        assertThat(log.overlaps()).as("reconciles of one key at once").isEmpty();
        assertThat(log.regressions()).as("reconciles that saw an older version than before").isEmpty();
        assertThat(log.afterDeletion()).as("reconciles of a version deleted well before").isEmpty();
    }

    /**
     * Checks that a settled controller reconciles nothing more by itself: queues one live key by hand as a marker and
     * waits until it was reconciled and the controller is quiet again. A key queued before the marker (a wrongly
     * queued key of a deleted object, say) is taken before it from the FIFO and finished before the controller is
     * quiet, so it shows up in the log as an entry other than the marker's.
     */
    private static void assertNoReconcileAfterSettling(Reconciler<V1ConfigMap> loop, ReconcileLog log,
            Map<ObjectKey, Long> live, Duration wait) {
        assertThat(live).as("live objects at the end of the history").isNotEmpty();
        Map.Entry<ObjectKey, Long> marker = live.entrySet().iterator().next();
        int settled = log.entries().size();
        loop.enqueue(marker.getKey());
        ReconcileLog.Entry expected = new ReconcileLog.Entry(marker.getKey(), marker.getValue());
        await("the marker key reconciled").atMost(wait).pollInterval(Duration.ofMillis(5)).untilAsserted(() -> {
            assertThat(log.entries().subList(settled, log.entries().size())).contains(expected);
            assertQuiet(loop, log);
        });
        assertThat(log.entries().subList(settled, log.entries().size()))
                .as("reconciles after the controller settled, but for the marker").containsExactly(expected);
    }

    /** Nothing due, nothing scheduled (the periodic resync aside), nothing running. */
    private static void assertQuiet(Reconciler<V1ConfigMap> loop, ReconcileLog log) {
        ReconcilerSnapshot snapshot = loop.snapshot();
        assertThat(snapshot.queueDepth()).as("keys due").isZero();
        assertThat(snapshot.scheduled()).as("keys scheduled").isZero();
        assertThat(snapshot.inFlight()).as("reconciles running").isZero();
        assertThat(log.idle()).isTrue();
    }

    private static void assertWatching(Watcher<?> watcher) {
        assertThat(watcher.snapshot().phase()).as("phase of " + watcher.name()).isEqualTo(WatcherPhase.WATCHING);
        assertThat(watcher.isRunning()).isTrue();
    }

    /**
     * Waits until every thread started since {@code baseline} ended, but for the JVM's and OkHttp's shared pools
     * (the subprocess reaper and OkHttp's runners end by themselves when idle). Polled in place: a poller thread of
     * its own would count as a new thread.
     */
    static void awaitThreadsBackTo(Set<Thread> baseline, Duration wait) {
        await("threads started since the baseline to end").atMost(wait).pollInSameThread()
                .pollInterval(Duration.ofMillis(20))
                .untilAsserted(() -> assertThat(extraThreads(baseline)).as("threads still alive after close").isEmpty());
    }

    private static List<String> extraThreads(Set<Thread> baseline) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && !baseline.contains(t))
                .map(Thread::getName)
                .filter(name -> !name.startsWith("OkHttp") && !name.startsWith("Okio")
                        && !name.equals("process reaper"))
                .toList();
    }

    static Set<Thread> threads() {
        return Set.copyOf(Thread.getAllStackTraces().keySet());
    }

    private static Map<ObjectKey, Long> versions(List<V1ConfigMap> objects) {
        Map<ObjectKey, Long> versions = new TreeMap<>();
        objects.forEach(o -> versions.put(ObjectKey.of(o), Long.parseLong(o.getMetadata().getResourceVersion())));
        return versions;
    }
}
