package dev.watchkeeper.backoff;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.retry.backoff.BackOffContext;

class ResetTimerBackOffPolicyTest {

    private final List<Long> slept = new ArrayList<>();
    private Instant now = Instant.parse("2026-01-01T00:00:00Z");
    private final Clock clock = new Clock() {
        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    };

    @Test
    void startsOverWhenThePreviousBackOffIsOlderThanResetAfter() {
        ResetTimerBackOffPolicy policy = new ResetTimerBackOffPolicy(
                BackOffSettingsTestSupport.clientGoPolicy().withRandom(() -> 0.0), Duration.ofSeconds(120), clock)
                .withSleeper(slept::add);
        BackOffContext context = policy.start(null);

        policy.backOff(context);
        policy.backOff(context);
        now = now.plusSeconds(120);
        policy.backOff(context);
        now = now.plusSeconds(121);
        policy.backOff(context);

        assertThat(slept).containsExactly(800L, 1600L, 3200L, 800L);
    }

    @Test
    void maxElapsedTimeCountsFromTheFirstFailureOfTheStreak() {
        MaxElapsedTimeRetryPolicy retry = new MaxElapsedTimeRetryPolicy(Duration.ofSeconds(60), clock);
        var context = retry.open(null);
        now = now.plusSeconds(500);
        retry.registerThrowable(context, new RuntimeException("first"));
        now = now.plusSeconds(60);
        assertThat(retry.canRetry(context)).isTrue();
        now = now.plusSeconds(1);
        assertThat(retry.canRetry(context)).isFalse();
        assertThat(retry.canRetry(retry.open(null))).as("a new streak").isTrue();
    }
}
