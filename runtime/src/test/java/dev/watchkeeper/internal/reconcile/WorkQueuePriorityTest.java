package dev.watchkeeper.internal.reconcile;

import static dev.watchkeeper.internal.reconcile.Priority.LOW;
import static dev.watchkeeper.internal.reconcile.Priority.NORMAL;
import static org.assertj.core.api.Assertions.assertThat;

import dev.watchkeeper.reconcile.ManualTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Priorities with aging, and holds (docs/semantics.md §9). */
@Timeout(5)
class WorkQueuePriorityTest {

    private static final Duration MAX_LOW_WAIT = Duration.ofSeconds(10);

    private final ManualTime time = new ManualTime();
    private final WorkQueue<String> queue = new WorkQueue<>(time, MAX_LOW_WAIT);
    private final ExecutorService takers = Executors.newCachedThreadPool();

    @AfterEach
    void stop() {
        queue.shutdown();
        takers.shutdownNow();
    }

    @Test
    void normalKeysGoBeforeLowOnesAndEachLineIsFirstInFirstOut() throws Exception {
        queue.add("list-1", Duration.ZERO, LOW);
        queue.add("list-2", Duration.ZERO, LOW);
        queue.add("change-1");
        queue.add("change-2", Duration.ZERO, NORMAL);

        assertThat(queue.depth()).isEqualTo(4);
        assertThat(queue.normalPriorityDepth()).isEqualTo(2);
        assertThat(queue.lowPriorityDepth()).isEqualTo(2);
        assertThat(takeAll(4)).containsExactly("change-1", "change-2", "list-1", "list-2");
        assertThat(queue.depth()).isZero();
    }

    @Test
    void aQueuedKeyKeepsTheHigherOfItsPriorities() throws Exception {
        queue.add("a", Duration.ZERO, LOW);
        queue.add("b", Duration.ZERO, LOW);
        queue.add("c");
        queue.add("b"); // a live change of a listed key: NORMAL now
        queue.add("c", Duration.ZERO, LOW); // a resync of a changed key: stays NORMAL

        assertThat(queue.lowPriorityDepth()).as("a only").isEqualTo(1);
        assertThat(queue.depth()).as("each key once").isEqualTo(3);
        assertThat(takeAll(3)).containsExactly("c", "b", "a");
    }

    @Test
    void aKeyReAddedWhileProcessedKeepsTheHigherPriorityForItsNextTurn() throws Exception {
        queue.add("a", Duration.ZERO, LOW);
        assertThat(queue.take()).isEqualTo("a");
        queue.add("a", Duration.ZERO, LOW);
        queue.add("a");
        queue.add("b", Duration.ZERO, LOW);
        queue.add("x");
        assertThat(queue.take()).isEqualTo("x");
        queue.add("x", Duration.ZERO, LOW); // only LOW while processed: LOW next time

        queue.done("a");
        queue.done("x");

        assertThat(takeAll(3)).containsExactly("a", "b", "x");
    }

    @Test
    void aDelayedKeyJoinsTheLineOfItsPriorityWhenDueAndAnAddRaisesIt() throws Exception {
        queue.add("debounced-list", Duration.ofSeconds(1), LOW);
        queue.add("debounced-other-list", Duration.ofSeconds(1), LOW);
        queue.add("debounced-other-list", Duration.ofSeconds(2)); // a live change: NORMAL, the earlier time stays
        time.advance(Duration.ofSeconds(1));
        queue.add("change");

        assertThat(takeAll(3)).containsExactly("change", "debounced-other-list", "debounced-list");
    }

    @Test
    void belowTheMaxWaitNormalKeysAlwaysGoFirst() throws Exception {
        queue.add("list", Duration.ZERO, LOW);
        List<String> taken = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            queue.add("change-" + i);
            time.advance(Duration.ofMillis(1_999)); // 9,995 ms in all
            taken.add(queue.take());
        }
        queue.add("change-5");

        assertThat(taken).containsExactly("change-0", "change-1", "change-2", "change-3", "change-4");
        assertThat(queue.take()).isEqualTo("change-5");
        assertThat(queue.lowPriorityDepth()).isEqualTo(1);
    }

    @Test
    void onceTheOldestLowKeyWaitedTheMaxWaitTheLinesTakeTurns() throws Exception {
        queue.add("list-1", Duration.ZERO, LOW);
        time.advance(Duration.ofSeconds(5));
        queue.add("list-2", Duration.ZERO, LOW);
        queue.add("change-1");
        queue.add("change-2");
        queue.add("change-3");
        time.advance(Duration.ofSeconds(5)); // list-1 waited 10 s, list-2 5 s

        assertThat(takeAll(5)).containsExactly("change-1", "list-1", "change-2", "change-3", "list-2");
    }

    @Test
    void aStreamOfNormalKeysCannotStarveALowOne() throws Exception {
        queue.add("list", Duration.ZERO, LOW);
        int takes = 0;
        int change = 0;
        queue.add("change-" + change++);
        String taken;
        do {
            queue.add("change-" + change++); // always more live changes than one worker takes
            queue.add("change-" + change++);
            time.advance(Duration.ofMillis(100));
            taken = queue.take();
            takes++;
        } while (!taken.equals("list") && takes < 1_000);

        assertThat(taken).isEqualTo("list");
        assertThat(takes).as("served within a take of its max wait (100 takes)").isBetween(100, 102);
    }

    @Test
    void withoutAMaxWaitThereAreNoPrioritiesOnlyOneFifo() throws Exception {
        WorkQueue<String> fifo = new WorkQueue<>(time, Duration.ZERO);
        fifo.add("list-1", Duration.ZERO, LOW);
        fifo.add("change");
        fifo.add("list-2", Duration.ZERO, LOW);

        assertThat(fifo.lowPriorityDepth()).isZero();
        assertThat(fifo.take()).isEqualTo("list-1");
        assertThat(fifo.take()).isEqualTo("change");
        assertThat(fifo.take()).isEqualTo("list-2");
    }

    @Test
    void aDrainHandsOutLowKeysToo() throws Exception {
        queue.add("list", Duration.ZERO, LOW);
        queue.add("change");
        queue.shutdownWithDrain();

        assertThat(queue.take()).isEqualTo("change");
        assertThat(queue.take()).isEqualTo("list");
        assertThat(queue.take()).isNull();
    }

    @Test
    void aHeldKeyIsNotTakenBeforeItsHoldWhateverAddsItMeanwhile() throws Exception {
        queue.add("a");
        assertThat(queue.take()).isEqualTo("a");
        queue.add("a"); // an event while it is reconciled
        queue.addHeld("a", Duration.ofSeconds(1), Duration.ofSeconds(1)); // its write was answered Retry-After: 1
        queue.done("a");
        queue.add("a"); // an owned object's event inside the wait

        assertThat(queue.dueAt("a")).isEqualTo(time.clock().instant().plusSeconds(1));
        assertThat(queue.depth()).isZero();
        CompletableFuture<String> next = CompletableFuture.supplyAsync(this::takeQuietly, takers);
        time.advance(Duration.ofMillis(999));
        queue.add("a");
        assertThat(next).isNotDone();

        time.advance(Duration.ofMillis(1));
        assertThat(next).succeedsWithin(Duration.ofSeconds(2)).isEqualTo("a");
        queue.done("a");
        queue.add("a");
        assertThat(queue.depth()).as("the hold ended once the key was taken").isEqualTo(1);
    }

    @Test
    void aHoldBoundsHowEarlyAnEventMayBringARetryNotTheBackoff() {
        queue.addHeld("a", Duration.ofSeconds(5), Duration.ofSeconds(1)); // a backoff of 5 s, Retry-After: 1

        assertThat(queue.dueAt("a")).isEqualTo(time.clock().instant().plusSeconds(5));
        queue.add("a");
        assertThat(queue.dueAt("a")).as("the event comes forward, to the hold").isEqualTo(
                time.clock().instant().plusSeconds(1));
        assertThat(queue.delayed()).isEqualTo(1);
    }

    @Test
    void holdingAKeyDueNowPushesItBack() throws Exception {
        queue.add("a", Duration.ZERO, LOW);
        queue.add("b");
        queue.addHeld("b", Duration.ofSeconds(1), Duration.ofSeconds(1));
        queue.addHeld("a", Duration.ofSeconds(2), Duration.ofSeconds(2));

        assertThat(queue.depth()).isZero();
        assertThat(queue.delayed()).isEqualTo(2);
        time.advance(Duration.ofSeconds(2));
        assertThat(takeAll(2)).containsExactly("b", "a");
    }

    private List<String> takeAll(int count) throws InterruptedException {
        List<String> taken = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            taken.add(queue.take());
        }
        return taken;
    }

    private String takeQuietly() {
        try {
            return queue.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
