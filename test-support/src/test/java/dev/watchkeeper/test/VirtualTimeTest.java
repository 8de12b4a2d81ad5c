package dev.watchkeeper.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.watchkeeper.internal.backoff.BackOffSleeper;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Virtual time moves only when someone sleeps or the test advances it, and stops at the horizon. */
class VirtualTimeTest {

    private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
    private static final Duration LIMIT = Duration.ofSeconds(5);

    private final VirtualTime time = new VirtualTime();
    private final List<Duration> reported = new ArrayList<>();
    private final BackOffSleeper sleeper = new BackOffSleeper(time, (delay, next) -> reported.add(delay));

    @Test
    void startsAt2026AndAdvancesOnDemand() {
        assertThat(time.now()).isEqualTo(START);
        assertThat(time.clock().instant()).isEqualTo(START);

        time.advance(Duration.ofSeconds(90));

        assertThat(time.clock().instant()).isEqualTo(START.plusSeconds(90));
        assertThat(time.elapsed()).isEqualTo(Duration.ofSeconds(90));
        assertThat(time.clock().withZone(java.time.ZoneId.of("Europe/Paris")).instant())
                .isEqualTo(START.plusSeconds(90));
    }

    @Test
    void sleepsReturnAtOnceAndMoveTheClock() throws InterruptedException {
        sleeper.sleep(800);
        sleeper.sleep(1_600);

        assertThat(time.elapsed()).isEqualTo(Duration.ofMillis(2_400));
        assertThat(time.sleeps()).containsExactly(Duration.ofMillis(800), Duration.ofMillis(1_600));
        assertThat(time.sleepStarts()).containsExactly(START, START.plusMillis(800));
        assertThat(reported).containsExactly(Duration.ofMillis(800), Duration.ofMillis(1_600));
    }

    @Test
    void sleepBeyondTheHorizonParksUntilResumed() throws Exception {
        time.pauseAt(Duration.ofSeconds(10));
        sleeper.sleep(4_000);

        CompletableFuture<Void> parked = sleepAsync(20_000);
        Instant pausedAt = time.awaitPaused(LIMIT);

        assertThat(pausedAt).isEqualTo(START.plusSeconds(10));
        assertThat(time.isPaused()).isTrue();
        assertThat(parked).isNotDone();

        time.resume();

        parked.get(LIMIT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(time.now()).isEqualTo(START.plusSeconds(24));
        assertThat(time.isPaused()).isFalse();
    }

    @Test
    void raisingTheHorizonReleasesSleepsThatNowFit() throws Exception {
        time.pauseAt(Duration.ofSeconds(10));
        CompletableFuture<Void> parked = sleepAsync(15_000);
        time.awaitPaused(LIMIT);

        time.pauseAt(Duration.ofSeconds(30));

        parked.get(LIMIT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(time.elapsed()).isEqualTo(Duration.ofSeconds(15));
    }

    @Test
    void advancingPastTheEndReleasesAParkedSleep() throws Exception {
        time.pauseAt(Duration.ofSeconds(1));
        CompletableFuture<Void> parked = sleepAsync(5_000);
        time.awaitPaused(LIMIT);

        time.advance(Duration.ofSeconds(10));

        parked.get(LIMIT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(time.elapsed()).isEqualTo(Duration.ofSeconds(11));
    }

    @Test
    void wakeUpEndsAParkedSleepWithoutMovingTime() throws Exception {
        time.pauseAt(Duration.ofSeconds(5));
        CompletableFuture<Void> parked = sleepAsync(60_000);
        time.awaitPaused(LIMIT);

        sleeper.wakeUp();

        parked.get(LIMIT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(time.now()).isEqualTo(START.plusSeconds(5));
    }

    @Test
    void closeEndsAParkedSleepWithInterruptedException() throws Exception {
        time.pauseAt(Duration.ZERO);
        CompletableFuture<Void> parked = sleepAsync(1_000);
        time.awaitPaused(LIMIT);

        sleeper.close();

        assertThatThrownBy(() -> parked.get(LIMIT.toMillis(), TimeUnit.MILLISECONDS))
                .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(InterruptedException.class);
    }

    @Test
    void awaitPausedFailsWhenNobodyParks() {
        time.pauseAt(Duration.ofSeconds(5));

        assertThatThrownBy(() -> time.awaitPaused(Duration.ofMillis(20)))
                .isInstanceOf(AssertionError.class).hasMessageContaining("no sleeper reached the horizon");
    }

    private CompletableFuture<Void> sleepAsync(long millis) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        Thread thread = new Thread(() -> {
            try {
                sleeper.sleep(millis);
                done.complete(null);
            } catch (Throwable e) {
                done.completeExceptionally(e);
            }
        }, "virtual-sleeper");
        thread.setDaemon(true);
        thread.start();
        return done;
    }
}
