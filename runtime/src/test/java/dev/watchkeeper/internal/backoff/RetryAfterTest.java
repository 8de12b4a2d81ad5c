package dev.watchkeeper.internal.backoff;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RetryAfterTest {

    @Test
    void readsWholeSecondsAndIgnoresTheRest() {
        assertThat(RetryAfter.parse(" 3 ")).isEqualTo(Duration.ofSeconds(3));
        assertThat(RetryAfter.parse("0")).isEqualTo(Duration.ZERO);
        assertThat(RetryAfter.parse("-1")).isNull();
        assertThat(RetryAfter.parse("Wed, 21 Oct 2026 07:28:00 GMT")).isNull();
        assertThat(RetryAfter.parse(null)).isNull();
    }

    @Test
    void findsTheHeaderInAnyCase() {
        assertThat(RetryAfter.in(Map.of("retry-after", List.of("2")))).isEqualTo(Duration.ofSeconds(2));
        assertThat(RetryAfter.in(Map.of("Content-Type", List.of("application/json")))).isNull();
        assertThat(RetryAfter.in(null)).isNull();
    }
}
