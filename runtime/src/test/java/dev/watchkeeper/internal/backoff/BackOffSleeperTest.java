package dev.watchkeeper.internal.backoff;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
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
        List<Duration> waits = new ArrayList<>();
        TimeSource recording = new TimeSource() {
            @Override
            public Clock clock() {
                return Clock.systemUTC();
            }

            @Override
            public void await(Object monitor, Duration delay, BooleanSupplier wake) {
                waits.add(delay);
            }
        };
        BackOffSleeper floored = new BackOffSleeper(recording, (delay, next) -> announced.set(delay));

        floored.atLeast(Duration.ofSeconds(30));
        floored.sleep(800);
        floored.sleep(1600);

        assertThat(waits).containsExactly(Duration.ofSeconds(30), Duration.ofMillis(1600));
        assertThat(announced.get()).isEqualTo(Duration.ofMillis(1600));
    }

    private void sleepAnHour() {
        try {
            sleeper.sleep(Duration.ofHours(1).toMillis());
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
