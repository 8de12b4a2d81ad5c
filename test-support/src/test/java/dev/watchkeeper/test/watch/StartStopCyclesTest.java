package dev.watchkeeper.test.watch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.watchkeeper.internal.reconcile.Reconciler;
import dev.watchkeeper.reconcile.ReconcileResult;
import dev.watchkeeper.internal.resource.ResourceType;
import dev.watchkeeper.internal.watch.WatchScope;
import dev.watchkeeper.internal.watch.Watcher;
import dev.watchkeeper.internal.watch.http.HttpWatchApi;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.util.ClientBuilder;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A thousand start/stop cycles of a watcher and a reconciler leave the thread count and the heap flat. Each cycle
 * discovers, lists and watches over HTTP on one shared {@link ApiClient} (as an application has), reconciles every
 * object and closes both. The in-memory server runs in a {@link ServerProcess} of its own, so only the client's
 * side is measured (in the same JVM, the JDK HTTP server's retained connections grew the heap by 3.6 KB a cycle).
 * The heap bound (1 MiB after 1,000 cycles) fails for a leak of 1 KiB a cycle (measured with a deliberate one:
 * +1,077 B a cycle, against +7 B without); the thread bound for one thread left behind every few hundred cycles.
 */
class StartStopCyclesTest {

    private static final int CYCLES = 1000;
    private static final int WARM_UP = 50;
    private static final int OBJECTS = 3;
    private static final long HEAP_BOUND = 1024 * 1024;
    private static final int THREAD_SLACK = 3;

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aThousandCyclesLeaveThreadsAndHeapFlat() throws Exception {
        try (ServerProcess server = ServerProcess.start(OBJECTS)) {
            ApiClient client = new ClientBuilder().setBasePath(server.url()).setReadTimeout(Duration.ZERO).build();
            for (int i = 0; i < WARM_UP; i++) {
                cycle(client);
            }
            int threadsBefore = liveThreads();
            long heapBefore = heapAfterGc();

            long started = System.nanoTime();
            for (int i = 0; i < CYCLES; i++) {
                cycle(client);
            }
            Duration took = Duration.ofNanos(System.nanoTime() - started);
            int threadsAfter = liveThreads();
            long heapAfter = heapAfterGc();

            System.out.printf("%d cycles in %d ms; threads %d -> %d; heap after GC %d -> %d KiB (%+d B a cycle)%n",
                    CYCLES, took.toMillis(), threadsBefore, threadsAfter, heapBefore / 1024, heapAfter / 1024,
                    (heapAfter - heapBefore) / CYCLES);
            assertThat(Thread.getAllStackTraces().keySet()).noneMatch(t -> t.getName().startsWith("watchkeeper-"));
            assertThat(threadsAfter).isLessThanOrEqualTo(threadsBefore + THREAD_SLACK);
            assertThat(heapAfter - heapBefore).isLessThan(HEAP_BOUND);
            assertThat(client.getHttpClient().dispatcher().runningCallsCount()).isZero();
        }
    }

    /** Starts a watcher and a reconciler, waits until every object was reconciled, and closes both. */
    private static void cycle(ApiClient client) throws InterruptedException {
        CountDownLatch reconciled = new CountDownLatch(OBJECTS);
        Watcher<V1ConfigMap> watcher = HttpWatchApi.watcher(client, ResourceType.of(V1ConfigMap.class))
                .scope(WatchScope.namespace("default")).build();
        Reconciler<V1ConfigMap> loop = Reconciler.builder("cycle", watcher, (object, context) -> {
            reconciled.countDown();
            return ReconcileResult.done();
        }).build();
        watcher.start();
        loop.start();
        if (!reconciled.await(10, TimeUnit.SECONDS)) {
            fail("reconciled " + (OBJECTS - reconciled.getCount()) + " of " + OBJECTS + " objects; watcher "
                    + watcher.snapshot());
        }
        loop.close(Duration.ofSeconds(1));
        watcher.close();
    }

    private static int liveThreads() {
        return (int) Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).count();
    }

    /** Used heap after full collections: the least of three readings. */
    private static long heapAfterGc() {
        long least = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            System.gc();
            least = Math.min(least, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
        }
        return least;
    }
}
