package dev.watchkeeper.internal.backoff;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.retry.backoff.BackOffContext;

class JitteredExponentialBackOffPolicyTest {

    private final List<Long> slept = new ArrayList<>();

    @Test
    void withoutRandomnessTheDelaysDoubleUpToTheCap() {
        List<Long> delays = delays(policy(() -> 0.0), 8);

        assertThat(delays).containsExactly(800L, 1600L, 3200L, 6400L, 12800L, 25600L, 30000L, 30000L);
    }

    @Test
    void fullJitterAddsUpToOneMoreBaseDelayAsClientGoDoes() {
        List<Long> delays = delays(policy(() -> 0.999), 7);

        long[] bases = {800, 1600, 3200, 6400, 12800, 25600, 30000};
        for (int i = 0; i < bases.length; i++) {
            assertThat(delays.get(i)).as("delay %d", i).isGreaterThan(bases[i] * 199 / 100).isLessThan(2 * bases[i]);
        }
    }

    @Test
    void aJitterAboveOneSpreadsTheWaitsFurtherAsClientGosWaitJitterDoes() {
        JitteredExponentialBackOffPolicy policy = new JitteredExponentialBackOffPolicy(Duration.ofMillis(800), 2.0,
                Duration.ofSeconds(30), 3.0).withRandom(() -> 0.999).withSleeper(slept::add);

        List<Long> delays = delays(policy, 2);

        assertThat(delays.get(0)).isGreaterThan(800 * 399 / 100).isLessThan(4 * 800);
        assertThat(delays.get(1)).isGreaterThan(1600 * 399 / 100).isLessThan(4 * 1600);
    }

    @Test
    void rejectsNumbersThatMakeNoSense() {
        assertThatThrownBy(() -> new JitteredExponentialBackOffPolicy(Duration.ZERO, 2, Duration.ofSeconds(1), 1))
                .hasMessageContaining("initial interval must be positive");
        assertThatThrownBy(() -> new JitteredExponentialBackOffPolicy(Duration.ofSeconds(1), 0.5,
                Duration.ofSeconds(2), 1)).hasMessageContaining("multiplier must be at least 1");
        assertThatThrownBy(() -> new JitteredExponentialBackOffPolicy(Duration.ofSeconds(2), 2,
                Duration.ofSeconds(1), 1)).hasMessageContaining("must not be below the initial interval");
    }

    private JitteredExponentialBackOffPolicy policy(java.util.function.DoubleSupplier random) {
        return BackOffSettingsTestSupport.clientGoPolicy().withRandom(random).withSleeper(slept::add);
    }

    private List<Long> delays(JitteredExponentialBackOffPolicy policy, int n) {
        BackOffContext context = policy.start(null);
        for (int i = 0; i < n; i++) {
            policy.backOff(context);
        }
        return slept;
    }
}
