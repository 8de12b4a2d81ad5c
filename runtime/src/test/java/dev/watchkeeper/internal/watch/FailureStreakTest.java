package dev.watchkeeper.internal.watch;

import dev.watchkeeper.watch.ErrorKind;
import dev.watchkeeper.watch.WatchError;
import static org.assertj.core.api.Assertions.assertThat;

import dev.watchkeeper.internal.backoff.BackOffSettings;
import dev.watchkeeper.internal.backoff.TimeSource;
import dev.watchkeeper.reconcile.ManualTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/** The failure streak (docs/semantics.md §6): when the curve and the give-up clock start over, and what it counts. */
class FailureStreakTest {

    /** client-go's numbers without jitter: 800 ms, 1.6 s, 3.2 s … */
    private static final BackOffSettings NO_JITTER = new BackOffSettings(Duration.ofMillis(800), 2.0,
            Duration.ofSeconds(30), 0.0, Duration.ofSeconds(120), null);
    private static final WatchError FAILURE = new WatchError(ErrorKind.INITIAL_LIST_FAILED, 503, "server error 503",
            Instant.EPOCH);

    private final ManualTime time = new ManualTime();
    private final List<Long> waits = new ArrayList<>();

    @Test
    void theCurveStartsOverWhenAFailureComesLongerThanResetAfterAfterThePreviousOne() {
        FailureStreak streak = streak(NO_JITTER);

        failAndWait(streak);
        failAndWait(streak);
        time.advance(Duration.ofMillis(118_400)); // 120 s after the previous failure: not longer
        failAndWait(streak);
        time.advance(Duration.ofSeconds(121));
        failAndWait(streak);

        assertThat(waits).containsExactly(800L, 1_600L, 3_200L, 800L);
        assertThat(streak.consecutiveFailures()).as("no progress in between").isEqualTo(4);
    }

    @Test
    void progressEndsTheStreakButNotTheCurve() {
        FailureStreak streak = streak(NO_JITTER);

        failAndWait(streak);
        failAndWait(streak);
        streak.progressed();
        assertThat(streak.consecutiveFailures()).isZero();
        failAndWait(streak);

        assertThat(waits).containsExactly(800L, 1_600L, 3_200L);
        assertThat(streak.consecutiveFailures()).isEqualTo(1);
    }

    @Test
    void retryNowStartsTheCurveOver() {
        FailureStreak streak = streak(NO_JITTER);

        failAndWait(streak);
        failAndWait(streak);
        streak.retryNow();
        failAndWait(streak);

        assertThat(waits).containsExactly(800L, 1_600L, 800L);
    }

    @Test
    void theRetryPolicyGivesUpAfterMaxElapsedTimeOfOneStreak() {
        FailureStreak streak = streak(NO_JITTER.withMaxElapsedTime(Duration.ofSeconds(60)));

        assertThat(streak.failed(FAILURE)).isTrue();
        time.advance(Duration.ofSeconds(60));
        assertThat(streak.failed(FAILURE)).isTrue();
        time.advance(Duration.ofSeconds(1));
        assertThat(streak.failed(FAILURE)).as("61 s into the streak").isFalse();
    }

    @Test
    void aFailureLongAfterThePreviousOneStartsANewStreakForTheRetryPolicy() {
        FailureStreak streak = streak(NO_JITTER.withMaxElapsedTime(Duration.ofSeconds(60)));

        assertThat(streak.failed(FAILURE)).isTrue();
        time.advance(Duration.ofSeconds(121));
        assertThat(streak.failed(FAILURE)).as("a new streak, though 121 s after the first failure").isTrue();
        time.advance(Duration.ofSeconds(59));
        assertThat(streak.failed(FAILURE)).isTrue();
    }

    @Test
    void describesThePolicyWithItsResetTimer() {
        assertThat(streak(NO_JITTER).description()).isEqualTo(
                "JitteredExponential(initial=PT0.8S, multiplier=2.0, max=PT30S, jitter=0.0) reset after PT2M");
    }

    private void failAndWait(FailureStreak streak) {
        assertThat(streak.failed(FAILURE)).isTrue();
        streak.await(FAILURE);
    }

    private FailureStreak streak(BackOffSettings settings) {
        return new FailureStreak("cms", settings.retryPolicy(time.clock()), settings.backOffPolicy(),
                settings.resetAfter(), new RecordingTime(), (delay, nextAttemptAt) -> waits.add(delay.toMillis()));
    }

    /** A wait returns at once and moves the clock by its delay. */
    private final class RecordingTime implements TimeSource {

        @Override
        public Clock clock() {
            return time.clock();
        }

        @Override
        public void await(Object monitor, Duration delay, BooleanSupplier wake) {
            time.advance(delay);
        }
    }
}
