package dev.watchkeeper.internal.backoff;

import static org.assertj.core.api.Assertions.assertThat;

import dev.watchkeeper.reconcile.ManualTime;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class MaxElapsedTimeRetryPolicyTest {

    private final ManualTime time = new ManualTime();

    @Test
    void maxElapsedTimeCountsFromTheFirstFailureOfTheStreak() {
        MaxElapsedTimeRetryPolicy retry = new MaxElapsedTimeRetryPolicy(Duration.ofSeconds(60), time.clock());
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
