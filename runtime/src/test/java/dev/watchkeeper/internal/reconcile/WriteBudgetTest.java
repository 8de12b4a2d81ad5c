package dev.watchkeeper.internal.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.watchkeeper.reconcile.ManualTime;
import io.kubernetes.client.openapi.ApiException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class WriteBudgetTest {

    private final ManualTime time = new ManualTime();
    private final WriteBudget budget = WriteBudget.of("writer", new RateLimit(2, 2), time);

    @Test
    void theBurstGoesAtOnceThenEachWriteWaitsForItsTokenOnTheClock() throws Exception {
        budget.acquire();
        budget.acquire();

        CompletableFuture<Void> third = CompletableFuture.runAsync(this::acquire);
        time.advance(Duration.ofMillis(499));
        await().during(Duration.ofMillis(100)).atMost(Duration.ofSeconds(2)).until(() -> !third.isDone());
        time.advance(Duration.ofMillis(1));

        third.get();
    }

    @Test
    void anInterruptedWaitFailsAsAnInterruptedCallAndKeepsTheFlag() throws Exception {
        budget.acquire();
        budget.acquire();
        AtomicBoolean flagKept = new AtomicBoolean();
        Thread writer = new Thread(() -> assertThatThrownBy(budget::acquire).isInstanceOfSatisfying(
                ApiException.class, e -> {
                    assertThat(e.getCause()).isInstanceOf(InterruptedIOException.class)
                            .hasMessageContaining("reconciler writer's write budget");
                    flagKept.set(Thread.currentThread().isInterrupted());
                }));
        writer.start();
        await().until(() -> writer.getState() == Thread.State.TIMED_WAITING);

        writer.interrupt();
        writer.join(5_000);

        assertThat(writer.isAlive()).isFalse();
        assertThat(flagKept).isTrue();
    }

    @Test
    void withoutABudgetNothingWaits() throws Exception {
        WriteBudget none = WriteBudget.of("writer", null, time);
        for (int i = 0; i < 1_000; i++) {
            none.acquire();
        }
        assertThat(none).isSameAs(WriteBudget.none());
    }

    private void acquire() {
        try {
            budget.acquire();
        } catch (ApiException e) {
            throw new IllegalStateException(e);
        }
    }
}
