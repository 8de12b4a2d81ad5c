package dev.watchkeeper.internal.watch;

import dev.watchkeeper.watch.WatchEvent;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class BufferedWatchEventListenerTest {

    @Test
    void aStuckListenerNeverBlocksTheWatcherAndLosesTheOldestEventsOnly() throws InterruptedException {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        List<String> seen = new CopyOnWriteArrayList<>();
        BufferedWatchEventListener<V1ConfigMap> buffered = new BufferedWatchEventListener<>("w", "slow", 3, null,
                event -> {
                    seen.add(((WatchEvent.Apply<V1ConfigMap>) event).object().getMetadata().getName());
                    entered.countDown();
                    hold(release);
                });
        buffered.start();
        buffered.onEvent(new WatchEvent.Apply<>(configMap("first")));
        assertThat(entered.await(5, TimeUnit.SECONDS)).isTrue(); // the listener holds "first" and is stuck

        for (int i = 1; i <= 10; i++) {
            buffered.onEvent(new WatchEvent.Apply<>(configMap("e" + i))); // returns at once although nobody takes
        }
        assertThat(buffered.dropped()).isEqualTo(7);
        release.countDown();

        await().atMost(Duration.ofSeconds(5)).until(() -> seen.size() == 4);
        assertThat(seen).containsExactly("first", "e8", "e9", "e10");
        assertThat(buffered.delivered()).isEqualTo(4);
        buffered.close();
    }

    @Test
    void aThrowingListenerKeepsReceivingEvents() {
        List<WatchEvent<String>> seen = new CopyOnWriteArrayList<>();
        BufferedWatchEventListener<String> buffered = new BufferedWatchEventListener<>("w", "boom", 10, null,
                event -> {
                    seen.add(event);
                    throw new IllegalStateException("on purpose");
                });
        buffered.start();
        buffered.onEvent(new WatchEvent.Init<>());
        buffered.onEvent(new WatchEvent.InitDone<>());
        await().atMost(Duration.ofSeconds(5)).until(() -> seen.size() == 2);
        assertThat(buffered.dropped()).isZero();
        buffered.close();
    }

    private static V1ConfigMap configMap(String name) {
        return new V1ConfigMap().metadata(new V1ObjectMeta().namespace("default").name(name));
    }

    private static void hold(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
