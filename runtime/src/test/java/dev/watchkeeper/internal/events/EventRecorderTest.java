package dev.watchkeeper.internal.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.watchkeeper.reconcile.ManualTime;
import io.kubernetes.client.openapi.ApiException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class EventRecorderTest {

    private static final Occurrence.Regarding A = new Occurrence.Regarding("v1", "ConfigMap", "ns", "a", "uid-a");

    private final ManualTime time = new ManualTime();

    @Test
    @Timeout(10)
    void aFullQueueDropsAndCountsWithoutEverWaitingForTheWriter() throws Exception {
        CountDownLatch writing = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        EventRecorder recorder = new EventRecorder(write -> {
            writing.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, time, 10);
        try {
            recorder.record(A, "gen", "Warning", "First", "Reconcile", "stuck writing");
            assertThat(writing.await(5, TimeUnit.SECONDS)).as("the writer is stuck in its first write").isTrue();

            long start = System.nanoTime();
            for (int i = 0; i < 1_000; i++) {
                recorder.record(A, "gen", "Warning", "Reason" + i, "Reconcile", "note");
            }
            assertThat(Duration.ofNanos(System.nanoTime() - start)).as("recording never waits for the writer")
                    .isLessThan(Duration.ofSeconds(2));
            assertThat(recorder.counts().dropped()).isEqualTo(1_000 - 10);
            assertThat(recorder.queued()).isEqualTo(10);
        } finally {
            release.countDown();
            recorder.close();
        }
        assertThat(recorder.counts().dropped()).isEqualTo(990);
        recorder.record(A, "gen", "Warning", "Late", "Reconcile", "after close");
        assertThat(recorder.counts().dropped()).as("after close, dropped and counted").isEqualTo(991);
    }

    @Test
    @Timeout(10)
    void writesAreCountedFailuresToo() {
        List<EventWrite> writes = new CopyOnWriteArrayList<>();
        EventRecorder recorder = new EventRecorder(write -> {
            if (write.first().reason().equals("Refused")) {
                throw new ApiException(403, "forbidden");
            }
            writes.add(write);
        }, time, 100);
        try {
            recorder.record(A, "gen", "Warning", "Failed", "Reconcile", "one");
            recorder.record(A, "gen", "Warning", "Failed", "Reconcile", "one");
            recorder.record(A, "gen", "Warning", "Failed", "Reconcile", "one");
            recorder.record(A, "gen", "Normal", "Refused", "Reconcile", "one");
            await().atMost(Duration.ofSeconds(5)).until(() -> recorder.counts().failed() == 1
                    && recorder.counts().written() == 2);
            assertThat(recorder.counts()).isEqualTo(new EventCounts(2, 2, 0, 0, 1));
        } finally {
            recorder.close();
        }
        assertThat(writes).as("the series that grew since its last write is written on close").hasSize(3)
                .last().extracting(write -> ((EventWrite.Series) write).count()).isEqualTo(3);
    }
}
