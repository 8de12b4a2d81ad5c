package dev.watchkeeper.internal.reconcile;

import dev.watchkeeper.reconcile.ReconcilerSnapshot;
import dev.watchkeeper.reconcile.TerminalReconcileException;
import static org.assertj.core.api.Assertions.assertThat;

import dev.watchkeeper.store.ObjectKey;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** One place for a key's failure and backoff: recording, retry numbering, terminal waits, forgetting. */
class FailureLedgerTest {

    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
    private final FailureLedger ledger = new FailureLedger(ReconcilerSettings.defaultBackOffPolicy(), null);
    private final ObjectKey a = new ObjectKey("ns", "a");
    private final ObjectKey b = new ObjectKey("ns", "b");

    @Test
    void retriesGrowTheDelayAndNumberTheAttemptsUntilForgotten() {
        assertThat(ledger.nextAttempt(a)).isEqualTo(1);
        assertThat(ledger.retry(a, 1, "1", new IllegalStateException("boom"), NOW, null)).isEqualTo(Duration.ofMillis(5));
        assertThat(ledger.nextAttempt(a)).isEqualTo(2);
        assertThat(ledger.retry(a, 2, "1", new IllegalStateException("boom"), NOW, null)).isEqualTo(Duration.ofMillis(10));

        ledger.forget(a);

        assertThat(ledger.size()).isZero();
        assertThat(ledger.nextAttempt(a)).isEqualTo(1);
        assertThat(ledger.retry(a, 1, "1", new IllegalStateException("boom"), NOW, null))
                .as("forgetting starts the backoff over too").isEqualTo(Duration.ofMillis(5));
    }

    @Test
    void withARateLimitRetriesBeyondTheBurstWaitOneOverQpsEachAndTheLongerWaitWins() {
        FailureLedger limited = new FailureLedger(ReconcilerSettings.defaultBackOffPolicy(), new RateLimit(10, 3));
        assertThat(limited.rateLimit(NOW)).isEqualTo(new ReconcilerSnapshot.RateLimitState(10, 3, Duration.ZERO, 0));

        List<Duration> delays = IntStream.range(0, 5).mapToObj(i -> limited.retry(new ObjectKey("ns", "k" + i), 1,
                "1", new IllegalStateException("boom"), NOW, null)).toList();

        assertThat(delays).as("the burst, then 100 ms apart; the backoff's 5 ms where it is longer")
                .containsExactly(Duration.ofMillis(5), Duration.ofMillis(5), Duration.ofMillis(5),
                        Duration.ofMillis(100), Duration.ofMillis(200));
        assertThat(limited.rateLimit(NOW)).isEqualTo(new ReconcilerSnapshot.RateLimitState(10, 3,
                Duration.ofMillis(300), 2));
        assertThat(limited.rateLimit(NOW.plusSeconds(1)).delay()).as("refilled, up to the burst").isZero();
        assertThat(limited.retry(a, 1, "1", new IllegalStateException("boom"), NOW.plusSeconds(1),
                Duration.ofSeconds(2))).as("a Retry-After beyond both").isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void aTerminalFailureWaitsForAnotherVersionAndResetsTheBackoff() {
        ledger.retry(a, 1, "1", new IllegalStateException("boom"), NOW, null);
        ledger.terminal(a, 2, "1", new TerminalReconcileException("bad spec"));

        assertThat(ledger.waitsForChange(a, "1")).isTrue();
        assertThat(ledger.waitsForChange(a, "2")).isFalse();
        assertThat(ledger.nextAttempt(a)).isEqualTo(1);
        assertThat(ledger.retry(a, 1, "2", new IllegalStateException("boom"), NOW, null)).isEqualTo(Duration.ofMillis(5));
    }

    @Test
    void showsTheMostRecentFailuresNewestFirstAndCountsAll() {
        ledger.retry(a, 1, "1", new IllegalStateException("first"), NOW, null);
        ledger.retry(b, 1, "1", new IllegalStateException(), NOW, null);

        assertThat(ledger.size()).isEqualTo(2);
        assertThat(ledger.mostRecent(1)).extracting(ReconcilerSnapshot.FailingKey::key).containsExactly("ns/b");
        assertThat(ledger.mostRecent(5)).extracting(ReconcilerSnapshot.FailingKey::lastError)
                .containsExactly("java.lang.IllegalStateException", "java.lang.IllegalStateException: first");
        assertThat(ledger.forgetAll()).containsExactlyInAnyOrder(a, b);
        assertThat(ledger.size()).isZero();
    }

    @Test
    void aServersRetryAfterLongerThanTheBackoffWins() {
        assertThat(ledger.retry(a, 1, "1", new IllegalStateException(), NOW, Duration.ofSeconds(1)))
                .isEqualTo(Duration.ofSeconds(1));
        assertThat(ledger.mostRecent(1).get(0).nextRetryAt()).isEqualTo(NOW.plusSeconds(1));
        assertThat(ledger.retry(a, 2, "1", new IllegalStateException(), NOW, Duration.ofMillis(1)))
                .as("a shorter one leaves the backoff's delay").isEqualTo(Duration.ofMillis(10));
    }
}
