package dev.watchkeeper.internal.reconcile;

import dev.watchkeeper.reconcile.ManualTime;
import dev.watchkeeper.reconcile.ReconcilerSnapshot;
import dev.watchkeeper.reconcile.TerminalReconcileException;
import static org.assertj.core.api.Assertions.assertThat;

import dev.watchkeeper.store.ObjectKey;
import io.kubernetes.client.openapi.ApiException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(5)
class ReconcileQueueTest {

    private static final ObjectKey A = new ObjectKey("default", "a");
    private static final ObjectKey B = new ObjectKey("default", "b");

    private final ManualTime time = new ManualTime();
    private final Instant t0 = time.clock().instant();
    private final AtomicInteger resyncs = new AtomicInteger();

    private ReconcileQueue queue = queue(ReconcilerSettings.defaults().withResyncPeriod(Duration.ofSeconds(10)), 0.25);

    @AfterEach
    void shutDown() {
        queue.shutDown();
    }

    @Test
    void aResyncIsDueThePeriodTimesItsJitterFactorInTheTenPercentWindow() {
        Duration hours10 = Duration.ofHours(10);

        assertThat(ReconcileQueue.resyncDelay(hours10, 0.0)).isEqualTo(Duration.ofHours(9));
        assertThat(ReconcileQueue.resyncDelay(hours10, 0.5)).isEqualTo(hours10);
        assertThat(ReconcileQueue.resyncDelay(hours10, 0.999_999_999)).isEqualTo(Duration.ofHours(11).minusMillis(1));
    }

    @Test
    void theTakerThatFindsTheResyncDueRunsItAndTheNextIsScheduledFromThen() throws Exception {
        queue.startResyncs(this::resync);
        assertThat(resyncs).as("the first enqueue of every primary runs at once").hasValue(1);
        assertThat(queue.nextResyncAt()).isEqualTo(t0.plusMillis(9_500));
        assertThat(queue.take()).isEqualTo(A);
        queue.done(A);

        time.advance(Duration.ofMillis(9_500));

        assertThat(queue.take()).as("the resync added a again").isEqualTo(A);
        assertThat(resyncs).hasValue(2);
        assertThat(queue.nextResyncAt()).isEqualTo(t0.plusMillis(19_000));
    }

    @Test
    void theResyncIsNoQueuedKeySoNoCountLeavesItOut() {
        queue.startResyncs(() -> resyncs.incrementAndGet());

        assertThat(queue.nextResyncAt()).isNotNull();
        assertThat(queue.depth()).isZero();
        assertThat(queue.delayed()).isZero();
        assertThat(queue.inFlight()).isZero();
    }

    @Test
    void aResyncDueWhileKeysWaitRunsBeforeThem() throws Exception {
        queue.startResyncs(() -> resyncs.incrementAndGet());
        queue.add(B);
        time.advance(Duration.ofSeconds(10));

        assertThat(queue.take()).isEqualTo(B);
        assertThat(resyncs).hasValue(2);
    }

    @Test
    void withoutAPeriodNoResyncIsScheduled() {
        queue = queue(ReconcilerSettings.defaults().withResyncPeriod(Duration.ZERO), 0.5);

        queue.startResyncs(() -> resyncs.incrementAndGet());

        assertThat(resyncs).hasValue(1);
        assertThat(queue.nextResyncAt()).isNull();
    }

    @Test
    void aShutdownEndsTheResyncs() throws Exception {
        queue.startResyncs(() -> resyncs.incrementAndGet());
        queue.shutDownWithDrain();

        assertThat(queue.nextResyncAt()).isNull();
        assertThat(queue.take()).isNull();
        assertThat(resyncs).hasValue(1);
    }

    @Test
    void addRateLimitedQueuesTheRetryAfterTheGrowingBackoffAndForgetStartsItOver() {
        assertThat(queue.addRateLimited(A, 1, "1", new IllegalStateException("boom"))).isEqualTo(Duration.ofMillis(5));
        assertThat(queue.dueAt(A)).isEqualTo(t0.plusMillis(5));
        assertThat(queue.addRateLimited(A, 2, "1", new IllegalStateException("boom"))).isEqualTo(Duration.ofMillis(10));
        assertThat(queue.failing()).isEqualTo(1);
        assertThat(queue.failure(A).attempts()).isEqualTo(2);

        queue.forget(A);

        assertThat(queue.failing()).isZero();
        assertThat(queue.addRateLimited(A, 1, "1", new IllegalStateException("boom"))).isEqualTo(Duration.ofMillis(5));
    }

    @Test
    void addRateLimitedWaitsAtLeastTheRetryAfterOfAnApiErrorInTheCauseChain() {
        ApiException tooMany = new ApiException(429, Map.of("Retry-After", List.of("3")), "{}");

        Duration delay = queue.addRateLimited(A, 1, "1", new IllegalStateException("the write failed", tooMany));

        assertThat(delay).isEqualTo(Duration.ofSeconds(3));
        assertThat(queue.dueAt(A)).isEqualTo(t0.plusSeconds(3));
    }

    @Test
    void aRateLimitDelaysRetriesOnceItsBurstIsSpent() {
        queue = queue(ReconcilerSettings.defaults().withRateLimit(new RateLimit(10, 1)), 0.5);

        assertThat(queue.addRateLimited(A, 1, "1", new IllegalStateException())).isEqualTo(Duration.ofMillis(5));
        assertThat(queue.addRateLimited(B, 1, "1", new IllegalStateException())).isEqualTo(Duration.ofMillis(100));
        assertThat(queue.rateLimit().limitedRetries()).isEqualTo(1);
    }

    @Test
    void terminalAndFatalFailuresAreRecordedButNotQueued() {
        queue.failTerminally(A, 1, "7", new TerminalReconcileException("bad spec"));
        queue.failFatally(B, 1, "7", new StackOverflowError());

        assertThat(queue.failure(A).waitsForChange("7")).isTrue();
        assertThat(queue.failure(B).terminal()).isFalse();
        assertThat(queue.dueAt(A)).isNull();
        assertThat(queue.dueAt(B)).isNull();
        assertThat(queue.recentFailures(10)).extracting(ReconcilerSnapshot.FailingKey::key)
                .containsExactly("default/b", "default/a");
    }

    @Test
    void retryFailingNowQueuesEveryFailingKeyAtOnceWithItsBackoffStartedOver() throws Exception {
        queue.addRateLimited(A, 1, "1", new IllegalStateException());
        queue.failTerminally(B, 1, "1", new TerminalReconcileException("bad"));

        queue.retryFailingNow();

        assertThat(queue.failing()).isZero();
        assertThat(List.of(queue.take(), queue.take())).containsExactlyInAnyOrder(A, B);
    }

    private void resync() {
        resyncs.incrementAndGet();
        queue.add(A);
    }

    private ReconcileQueue queue(ReconcilerSettings settings, double jitter) {
        return new ReconcileQueue(time, settings, () -> jitter);
    }
}
