package dev.watchkeeper.backoff;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class BackOffSleeperTest {

    private final AtomicReference<Duration> announced = new AtomicReference<>();
    private final BackOffSleeper sleeper = new BackOffSleeper(TimeSource.system(),
            (delay, next) -> announced.set(delay));

    @Test
    void wakeUpEndsALongWaitAtOnce() {
        CompletableFuture<Void> sleeping = CompletableFuture.runAsync(this::sleepAnHour);
        await().until(() -> announced.get() != null);

        sleeper.wakeUp();

        await().atMost(Duration.ofSeconds(2)).until(sleeping::isDone);
        assertThat(sleeping).isCompleted();
        assertThat(announced.get()).isEqualTo(Duration.ofHours(1));
    }

    @Test
    void closeMakesTheWaitAndEveryLaterOneThrow() {
        CompletableFuture<Void> sleeping = CompletableFuture.runAsync(this::sleepAnHour);
        await().until(() -> announced.get() != null);

        sleeper.close();

        await().atMost(Duration.ofSeconds(2)).until(sleeping::isDone);
        assertThat(sleeping).isCompletedExceptionally();
        assertThatThrownBy(() -> sleeper.sleep(1)).isInstanceOf(InterruptedException.class);
    }

    @Test
    void aFloorStretchesTheNextWaitOnly() throws InterruptedException {
        sleeper.atLeast(Duration.ofMillis(30));
        Instant before = Instant.now();
        sleeper.sleep(1);
        assertThat(announced.get()).isEqualTo(Duration.ofMillis(30));
        assertThat(Duration.between(before, Instant.now())).isGreaterThanOrEqualTo(Duration.ofMillis(30));
        sleeper.sleep(1);
        assertThat(announced.get()).isEqualTo(Duration.ofMillis(1));
    }

    private void sleepAnHour() {
        try {
            sleeper.sleep(Duration.ofHours(1).toMillis());
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
