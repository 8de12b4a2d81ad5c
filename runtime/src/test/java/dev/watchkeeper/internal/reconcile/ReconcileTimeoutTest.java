package dev.watchkeeper.internal.reconcile;

import static dev.watchkeeper.reconcile.TestObjects.configMap;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.watchkeeper.internal.watch.Watcher;
import dev.watchkeeper.reconcile.FakeWatchApi;
import dev.watchkeeper.reconcile.ManualTime;
import dev.watchkeeper.reconcile.ReconcileResult;
import dev.watchkeeper.reconcile.ReconcilerSnapshot;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.LoggerFactory;

/** The reconcile timeout, on a clock the test moves: the timer interrupts, the failure is retried, a stuck one shown. */
@Timeout(10)
class ReconcileTimeoutTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    @BeforeAll
    static void pollQuickly() {
        Awaitility.setDefaultPollInterval(Duration.ofMillis(5));
    }

    private final ManualTime time = new ManualTime();
    private final FakeWatchApi<V1ConfigMap> configMapApi = new FakeWatchApi<>(ReconcilerTest.CONFIG_MAPS);
    private final Watcher<V1ConfigMap> configMaps = Watcher.builder(configMapApi, ReconcilerTest.CONFIG_MAPS).build();
    private final List<ReconcileOutcome> outcomes = new CopyOnWriteArrayList<>();
    private final CountDownLatch started = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);
    private Reconciler<V1ConfigMap> reconciler;

    @AfterEach
    void closeEverything() {
        release.countDown();
        reconciler.close(Duration.ofSeconds(1));
        configMaps.close();
    }

    @Test
    void aReconcileBlockedPastItsTimeoutIsInterruptedCountedAsTimedOutAndRetriedWithTheBackoff() throws Exception {
        start((object, context) -> {
            if (context.attempt() == 1) {
                started.countDown();
                release.await(); // interruptible, as a reconcile should be
            }
            return ReconcileResult.done();
        });
        assertThat(started.await(5, TimeUnit.SECONDS)).isTrue();

        time.advance(TIMEOUT.minusMillis(1));
        await().during(Duration.ofMillis(100)).atMost(Duration.ofSeconds(2)).until(outcomes::isEmpty);
        time.advance(Duration.ofMillis(1));
        await().until(() -> !outcomes.isEmpty());

        ReconcileOutcome timedOut = outcomes.get(0);
        assertThat(timedOut.kind()).isEqualTo(ReconcileOutcome.Kind.TIMEOUT);
        assertThat(timedOut.attempt()).isEqualTo(1);
        assertThat(timedOut.next()).as("the first backoff").isEqualTo(Duration.ofMillis(5));
        assertThat(timedOut.error()).isInstanceOf(ReconcileTimeoutException.class).hasMessage("timed out after 30s");
        assertThat(timedOut.error().getSuppressed()).singleElement().isInstanceOf(InterruptedException.class);
        ReconcilerSnapshot snapshot = reconciler.snapshot();
        assertThat(snapshot.lastResult()).isEqualTo("timeout");
        assertThat(snapshot.counts().errors()).isEqualTo(1);
        assertThat(snapshot.failingKeys()).singleElement()
                .satisfies(failure -> assertThat(failure.lastError()).contains("timed out after 30s"));

        time.advance(Duration.ofMillis(5));
        await().until(() -> outcomes.size() == 2);
        assertThat(outcomes.get(1).kind()).isEqualTo(ReconcileOutcome.Kind.DONE);
        assertThat(outcomes.get(1).attempt()).isEqualTo(2);
        assertThat(reconciler.snapshot().failingKeysTotal()).isZero();
    }

    @Test
    void aReconcileThatIgnoresTheInterruptIsReportedStuckUntilItReturns() throws Exception {
        AtomicInteger interrupts = new AtomicInteger();
        start((object, context) -> {
            started.countDown();
            while (true) {
                try {
                    if (release.await(10, TimeUnit.SECONDS)) {
                        return ReconcileResult.done();
                    }
                } catch (InterruptedException ignored) {
                    interrupts.incrementAndGet(); // the defect under test: it carries on
                }
            }
        });
        assertThat(started.await(5, TimeUnit.SECONDS)).isTrue();
        Logger reconcilerLog = (Logger) LoggerFactory.getLogger(Reconciler.class);
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        logged.start();
        reconcilerLog.addAppender(logged);
        try {
            time.advance(TIMEOUT);
            await().until(() -> interrupts.get() == 1);
            assertThat(reconciler.snapshot().stuckKeys()).as("only after a second more").isEmpty();

            time.advance(Duration.ofSeconds(1));
            await().until(() -> !reconciler.snapshot().stuckKeys().isEmpty());
            assertThat(reconciler.snapshot().stuckKeys()).containsExactly("default/a");
            assertThat(logged.list).filteredOn(e -> e.getLevel() == Level.ERROR)
                    .extracting(ILoggingEvent::getFormattedMessage).singleElement().asString()
                    .contains("reconciler test", "reconcile of default/a ignored the interrupt of its timeout",
                            "1 of 1 workers are stuck");
        } finally {
            reconcilerLog.detachAppender(logged);
        }

        release.countDown();
        await().until(() -> !outcomes.isEmpty());
        assertThat(outcomes.get(0).kind()).as("it returned: its result stands").isEqualTo(ReconcileOutcome.Kind.DONE);
        assertThat(reconciler.snapshot().stuckKeys()).isEmpty();
        assertThat(interrupts).as("interrupted once, not again as stuck").hasValue(1);
    }

    @Test
    void aReconcileWithinItsTimeoutIsNotInterruptedAndLeavesItsWorkerUninterrupted() throws Exception {
        AtomicInteger interruptedAfter = new AtomicInteger();
        configMapApi.listing(configMap("a", "1"), configMap("b", "1"));
        reconciler = Reconciler.builder("test", configMaps, (object, context) -> {
            time.advance(TIMEOUT.minusMillis(1)); // just in time
            if (Thread.currentThread().isInterrupted()) {
                interruptedAfter.incrementAndGet();
            }
            return ReconcileResult.done();
        }).listener(outcomes::add).timeSource(time)
                .settings(ReconcilerSettings.defaults().withConcurrency(1).withTimeout(TIMEOUT)).build();
        configMaps.start();
        reconciler.start();

        await().until(() -> outcomes.size() == 2);
        assertThat(outcomes).extracting(ReconcileOutcome::kind).containsOnly(ReconcileOutcome.Kind.DONE);
        assertThat(interruptedAfter).hasValue(0);
    }

    @Test
    void aReconcileThatReturnsAfterTheInterruptSucceededAndItsWorkerTakesTheNextKeyUninterrupted() {
        List<Boolean> interruptedAtStart = new CopyOnWriteArrayList<>();
        configMapApi.listing(configMap("a", "1"), configMap("b", "1"));
        reconciler = Reconciler.builder("test", configMaps, (object, context) -> {
            interruptedAtStart.add(Thread.currentThread().isInterrupted());
            if (interruptedAtStart.size() == 1) {
                time.advance(TIMEOUT);
                while (!Thread.currentThread().isInterrupted()) { // busy, so the flag stays set when it returns
                    Thread.onSpinWait();
                }
            }
            return ReconcileResult.done();
        }).listener(outcomes::add).timeSource(time)
                .settings(ReconcilerSettings.defaults().withConcurrency(1).withTimeout(TIMEOUT)).build();
        configMaps.start();
        reconciler.start();

        await().until(() -> outcomes.size() == 2);
        assertThat(outcomes).extracting(ReconcileOutcome::kind).containsOnly(ReconcileOutcome.Kind.DONE);
        assertThat(interruptedAtStart).containsExactly(false, false);
    }

    private void start(ReconcileFunction<V1ConfigMap> reconcile) {
        configMapApi.listing(configMap("a", "1"));
        reconciler = Reconciler.builder("test", configMaps, reconcile).listener(outcomes::add).timeSource(time)
                .settings(ReconcilerSettings.defaults().withConcurrency(1).withTimeout(TIMEOUT)).build();
        configMaps.start();
        reconciler.start();
    }
}
