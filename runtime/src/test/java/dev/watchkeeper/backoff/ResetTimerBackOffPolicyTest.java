package dev.watchkeeper.backoff;

import static org.assertj.core.api.Assertions.assertThat;

import dev.watchkeeper.reconcile.ManualTime;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.retry.backoff.BackOffContext;

class ResetTimerBackOffPolicyTest {

    private final List<Long> slept = new ArrayList<>();
    private final ManualTime time = new ManualTime();
    private final Clock clock = time.clock();

    @Test
    void startsOverWhenThePreviousBackOffIsOlderThanResetAfter() {
        ResetTimerBackOffPolicy policy = new ResetTimerBackOffPolicy(
                BackOffSettingsTestSupport.clientGoPolicy().withRandom(() -> 0.0), Duration.ofSeconds(120), clock)
                .withSleeper(slept::add);
        BackOffContext context = policy.start(null);

        policy.backOff(context);
        policy.backOff(context);
        time.advance(Duration.ofSeconds(120));
        policy.backOff(context);
        time.advance(Duration.ofSeconds(121));
        policy.backOff(context);

        assertThat(slept).containsExactly(800L, 1600L, 3200L, 800L);
    }

    @Test
    void maxElapsedTimeCountsFromTheFirstFailureOfTheStreak() {
        MaxElapsedTimeRetryPolicy retry = new MaxElapsedTimeRetryPolicy(Duration.ofSeconds(60), clock);
        var context = retry.open(null);
        time.advance(Duration.ofSeconds(500));
        retry.registerThrowable(context, new RuntimeException("first"));
        time.advance(Duration.ofSeconds(60));
        assertThat(retry.canRetry(context)).isTrue();
        time.advance(Duration.ofSeconds(1));
        assertThat(retry.canRetry(context)).isFalse();
        assertThat(retry.canRetry(retry.open(null))).as("a new streak").isTrue();
    }
}
