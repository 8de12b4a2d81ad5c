package dev.watchkeeper.internal.reconcile;

import dev.watchkeeper.reconcile.ManualTime;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.watchkeeper.internal.backoff.TimeSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.stream.IntStream;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(5)
class WorkQueueTest {

    @BeforeAll
    static void pollQuickly() {
        Awaitility.setDefaultPollInterval(Duration.ofMillis(5));
    }

    private final ManualTime time = new ManualTime();
    private final WorkQueue<String> queue = new WorkQueue<>(time);
    private final ExecutorService takers = Executors.newCachedThreadPool();

    @AfterEach
    void stopTakers() {
        queue.shutdown();
        takers.shutdownNow();
    }

    @Test
    void addingAQueuedKeyAgainIsANoOp() throws Exception {
        queue.add("a");
        queue.add("b");
        queue.add("a");

        assertThat(queue.depth()).isEqualTo(2);
        assertThat(queue.take()).isEqualTo("a");
        assertThat(queue.take()).isEqualTo("b");
        assertThat(queue.depth()).isZero();
        assertThat(queue.inFlight()).isEqualTo(2);
    }

    @Test
    void theEarliestDueTimeWins() throws Exception {
        queue.add("a", Duration.ofSeconds(10));
        queue.add("a", Duration.ofSeconds(1));
        queue.add("a", Duration.ofSeconds(5));

        assertThat(queue.dueAt("a")).isEqualTo(time.clock().instant().plusSeconds(1));
        assertThat(queue.delayed()).as("one slot for a").isEqualTo(1);
        assertThat(queue.depth()).isZero();
    }

    @Test
    void delayedKeysComeOutInDueOrderOnceDue() throws Exception {
        queue.add("late", Duration.ofSeconds(3));
        queue.add("early", Duration.ofSeconds(1));
        queue.add("now");

        assertThat(queue.take()).isEqualTo("now");
        CompletableFuture<String> next = CompletableFuture.supplyAsync(this::takeQuietly, takers);
        assertThat(next).isNotDone();
        time.advance(Duration.ofSeconds(1));
        assertThat(next).succeedsWithin(Duration.ofSeconds(2)).isEqualTo("early");
        time.advance(Duration.ofSeconds(2));
        assertThat(queue.take()).isEqualTo("late");
    }

    @Test
    void aKeyDueLaterWithinTheCurrentMillisecondIsNotDueBeforeItsInstant() throws Exception {
        queue.add("sub-millisecond", Duration.ofNanos(600_000)); // due in the millisecond the clock is in
        queue.add("now");
        assertThat(queue.take()).isEqualTo("now");

        time.advance(Duration.ofNanos(500_000));
        queue.add("next");
        assertThat(queue.take()).isEqualTo("next");
        assertThat(queue.delayed()).as("100 µs early: still delayed").isEqualTo(1);
        assertThat(queue.depth()).isZero();

        time.advance(Duration.ofNanos(100_000));
        assertThat(queue.take()).isEqualTo("sub-millisecond");
        assertThat(queue.delayed()).isZero();
    }

    @Test
    void aDelayedKeyAddedForNowIsTakenInTurnAndOnlyOnce() throws Exception {
        queue.add("a", Duration.ofSeconds(10));
        queue.add("b");
        queue.add("a");
        queue.add("a", Duration.ofSeconds(5));

        assertThat(queue.take()).isEqualTo("b");
        assertThat(queue.take()).isEqualTo("a");
        queue.done("a");
        time.advance(Duration.ofSeconds(11));
        queue.add("c", Duration.ofSeconds(1));

        assertThat(queue.delayed()).as("the delayed slot a left behind is not queued").isEqualTo(1);
        assertThat(queue.depth()).as("c is not due yet").isZero();
        CompletableFuture<String> next = CompletableFuture.supplyAsync(this::takeQuietly, takers);
        time.advance(Duration.ofSeconds(1));
        assertThat(next).succeedsWithin(Duration.ofSeconds(2)).isEqualTo("c");
    }

    @Test
    void anEarlierAddWakesAWaitingTake() {
        queue.add("a", Duration.ofHours(1));
        CompletableFuture<String> next = CompletableFuture.supplyAsync(this::takeQuietly, takers);

        queue.add("b");

        assertThat(next).succeedsWithin(Duration.ofSeconds(2)).isEqualTo("b");
    }

    @Test
    void depthCountsKeysDueNowAndDelayedCountsTheOthers() throws Exception {
        queue.add("now");
        queue.add("later", Duration.ofSeconds(10));
        queue.add("sooner", Duration.ofSeconds(10));
        queue.add("sooner");

        assertThat(queue.depth()).as("now and sooner").isEqualTo(2);
        assertThat(queue.delayed()).as("later").isEqualTo(1);
        time.advance(Duration.ofSeconds(10));
        assertThat(queue.take()).isEqualTo("now");
        assertThat(queue.take()).isEqualTo("sooner");
        assertThat(queue.take()).isEqualTo("later");
        assertThat(queue.delayed()).isZero();
        assertThat(queue.depth()).isZero();
    }

    @Test
    void aKeyAddedWhileProcessingRunsExactlyOnceMoreAfterDone() throws Exception {
        queue.add("a");
        assertThat(queue.take()).isEqualTo("a");

        queue.add("a");
        queue.add("a");
        assertThat(queue.depth()).isZero();
        queue.done("a");

        assertThat(queue.depth()).isEqualTo(1);
        assertThat(queue.take()).isEqualTo("a");
        queue.done("a");
        assertThat(queue.depth()).isZero();
        assertThat(queue.inFlight()).isZero();
    }

    @Test
    void neverHandsOutAKeyBeingProcessed() throws Exception {
        queue.add("a");
        assertThat(queue.take()).isEqualTo("a");
        queue.add("a");
        queue.add("b");

        assertThat(queue.take()).isEqualTo("b");
        CompletableFuture<String> next = CompletableFuture.supplyAsync(this::takeQuietly, takers);
        assertThat(next).isNotDone();
        queue.done("a");
        assertThat(next).succeedsWithin(Duration.ofSeconds(2)).isEqualTo("a");
    }

    @Test
    void doneAndTakeQueuesAKeyAddedWhileProcessingBehindThoseAlreadyWaitingAndHandsOutTheNext() throws Exception {
        queue.add("a");
        assertThat(queue.take()).isEqualTo("a");
        queue.add("a");
        queue.add("b");

        assertThat(queue.doneAndTake("a")).isEqualTo("b");
        assertThat(queue.doneAndTake("b")).isEqualTo("a");
        assertThat(queue.inFlight()).isEqualTo(1);
        queue.done("a");
        assertThat(queue.inFlight()).isZero();
        assertThat(queue.depth()).isZero();
    }

    @Test
    void doneAndTakeEndsTheProcessingBeforeItWaitsForTheNextKey() throws Exception {
        queue.add("a");
        assertThat(queue.take()).isEqualTo("a");

        CompletableFuture<String> next = CompletableFuture.supplyAsync(() -> {
            try {
                return queue.doneAndTake("a");
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }, takers);
        await().until(() -> queue.inFlight() == 0 && waitingThreads(1));
        assertThat(next).isNotDone();
        queue.add("a");

        assertThat(next).succeedsWithin(Duration.ofSeconds(2)).isEqualTo("a");
        assertThat(queue.inFlight()).isEqualTo(1);
    }

    @Test
    void aDirtyKeyKeepsTheDelayItWasAddedWith() throws Exception {
        queue.add("a");
        queue.take();
        queue.add("a", Duration.ofSeconds(30));
        queue.done("a");

        assertThat(queue.dueAt("a")).isEqualTo(time.clock().instant().plusSeconds(30));
    }

    @Test
    void laterAddsOfAQueuedKeyDoNotPushItBackSoADebounceWindowIsFixedFromTheFirst() {
        Duration debounce = Duration.ofSeconds(1);
        java.time.Instant first = time.clock().instant();
        for (int i = 0; i < 10; i++) {
            queue.add("a", debounce);
            time.advance(Duration.ofMillis(90));
        }

        assertThat(queue.dueAt("a")).isEqualTo(first.plus(debounce));
        assertThat(queue.delayed()).isEqualTo(1);
    }

    @Test
    void shutdownUnblocksTakeAndIgnoresLaterAdds() {
        CompletableFuture<String> next = CompletableFuture.supplyAsync(this::takeQuietly, takers);

        queue.shutdown();
        queue.add("a");

        assertThat(next).succeedsWithin(Duration.ofSeconds(2)).isNull();
        assertThat(queue.depth()).isZero();
    }

    @Test
    void aDrainHandsOutTheKeysDueThenAndDropsDelayedOnesAndLaterAdds() throws Exception {
        queue.add("a");
        queue.add("b");
        queue.add("later", Duration.ofSeconds(1));
        queue.add("c", Duration.ofMillis(10));
        time.advance(Duration.ofMillis(10));

        queue.shutdownWithDrain();
        queue.add("d");
        time.advance(Duration.ofSeconds(1));

        assertThat(queue.isShutdown()).isTrue();
        assertThat(queue.take()).isEqualTo("a");
        assertThat(queue.take()).isEqualTo("b");
        assertThat(queue.take()).as("due when the drain began").isEqualTo("c");
        assertThat(queue.take()).as("delayed and later keys are dropped").isNull();
        assertThat(queue.delayed()).isZero();
    }

    @Test
    void aDrainHandsOutAKeyAddedDueNowWhileItWasProcessingButNotOneAddedWithADelay() throws Exception {
        queue.add("a");
        queue.add("b");
        assertThat(queue.take()).isEqualTo("a");
        assertThat(queue.take()).isEqualTo("b");
        queue.add("a");
        queue.add("b", Duration.ofSeconds(5));

        queue.shutdownWithDrain();
        assertThat(queue.take()).as("nothing queued now").isNull();
        queue.done("a");
        queue.done("b");

        assertThat(queue.take()).isEqualTo("a");
        assertThat(queue.take()).isNull();
    }

    @Test
    void shutdownEndsADrain() throws Exception {
        queue.add("a");
        queue.shutdownWithDrain();

        queue.shutdown();

        assertThat(queue.take()).isNull();
    }

    @Test
    void aDueTimerEndsOneTakeWithNullAndIsClearedWhileTheQueueGoesOn() throws Exception {
        queue.setTimer(time.clock().instant().plusSeconds(1));
        queue.add("a");
        assertThat(queue.take()).isEqualTo("a");
        assertThat(queue.depth() + queue.delayed()).as("the timer is no queued key").isZero();

        CompletableFuture<String> next = CompletableFuture.supplyAsync(this::takeQuietly, takers);
        time.advance(Duration.ofSeconds(1));

        assertThat(next).succeedsWithin(Duration.ofSeconds(2)).isNull();
        assertThat(queue.isShutdown()).as("a timer, not a shutdown").isFalse();
        assertThat(queue.timer()).isNull();
        queue.add("b");
        assertThat(queue.take()).isEqualTo("b");
    }

    @Test
    void aTimerDueWhileKeysWaitEndsTheNextTakeBeforeThem() throws Exception {
        queue.add("a");
        queue.setTimer(time.clock().instant());

        assertThat(queue.take()).as("a backlog does not hold the timer back").isNull();
        assertThat(queue.take()).isEqualTo("a");
    }

    @Test
    void settingATimerWakesATakerWaitingForALaterKeyOnTheRealClock() {
        WorkQueue<String> real = new WorkQueue<>(TimeSource.system());
        real.add("late", Duration.ofHours(1));
        CompletableFuture<String> next = new CompletableFuture<>();
        Thread taker = new Thread(() -> next.complete(takeQuietly(real)));
        taker.start();
        await().until(() -> taker.getState() == Thread.State.TIMED_WAITING); // for the hour

        real.setTimer(TimeSource.system().clock().instant().plusMillis(20));

        assertThat(next).succeedsWithin(Duration.ofSeconds(2)).isNull();
        real.shutdown();
    }

    @Test
    void aDrainClearsTheTimerAndAShutDownQueueSetsNone() {
        queue.setTimer(time.clock().instant().plusSeconds(1));

        queue.shutdownWithDrain();
        assertThat(queue.timer()).isNull();
        queue.setTimer(time.clock().instant());

        assertThat(queue.timer()).isNull();
    }

    @Test
    void takeIsInterruptible() throws Exception {
        Thread taker = new Thread(this::takeQuietly);
        taker.start();
        await().until(() -> taker.getState() == Thread.State.TIMED_WAITING || taker.getState() == Thread.State.WAITING);

        taker.interrupt();
        taker.join(TimeUnit.SECONDS.toMillis(2));

        assertThat(taker.isAlive()).isFalse();
    }

    @Test
    void waitsForADueTimeOnTheRealClock() throws Exception {
        WorkQueue<String> real = new WorkQueue<>(TimeSource.system());
        real.add("a", Duration.ofMillis(20));
        long start = System.nanoTime();

        assertThat(real.take()).isEqualTo("a");
        assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(19));
    }

    @Test
    void keysAddedAtOnceWhileEveryTakerWaitsWakeOneTakerPerKey() throws Exception {
        // Real waiting: the manual clock's await returns every 2 ms and would hide a taker that is never woken.
        WorkQueue<String> real = new WorkQueue<>(TimeSource.system());
        int waiting = 4;
        CountDownLatch allHolding = new CountDownLatch(waiting);
        List<CompletableFuture<String>> taken = new ArrayList<>();
        for (int i = 0; i < waiting; i++) {
            taken.add(CompletableFuture.supplyAsync(() -> {
                try {
                    String key = real.take();
                    allHolding.countDown();
                    allHolding.await(); // every key is held at once only if every taker was woken
                    return key;
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }, takers));
        }
        await().until(() -> waitingThreads(waiting));

        for (int i = 0; i < waiting; i++) {
            real.add("k" + i); // only the first finds the FIFO empty and wakes a taker
        }

        assertThat(allHolding.await(2, TimeUnit.SECONDS)).as("every waiting taker got a key").isTrue();
        assertThat(taken.stream().map(CompletableFuture::join).sorted().toList()).containsExactly("k0", "k1", "k2", "k3");
        real.shutdown();
    }

    @Test
    void underConcurrentAddsEveryKeyIsHandedOutAfterItsLastAddAndNeverTwiceAtOnce() throws Exception {
        concurrentAddsAreEachSeenAndNoKeyIsHeldTwice((real, key) -> {
            real.done(key);
            return real.take();
        });
    }

    @Test
    void takersThatStepWithDoneAndTakeNeverHoldAKeyTwiceAndSeeEveryAdd() throws Exception {
        concurrentAddsAreEachSeenAndNoKeyIsHeldTwice(WorkQueue::doneAndTake);
    }

    /** How a taker goes from the key it finished to the next one. */
    private interface Step {
        Integer next(WorkQueue<Integer> queue, Integer finished) throws InterruptedException;
    }

    /**
     * 8 takers stepping with {@code step} and 3 threads adding random keys: every key is handed out after its last
     * add, and never to two takers at once.
     */
    private void concurrentAddsAreEachSeenAndNoKeyIsHeldTwice(Step step) throws Exception {
        WorkQueue<Integer> real = new WorkQueue<>(TimeSource.system());
        int keys = 200;
        AtomicIntegerArray running = new AtomicIntegerArray(keys);
        AtomicIntegerArray addsSeen = new AtomicIntegerArray(keys);
        AtomicIntegerArray adds = new AtomicIntegerArray(keys);
        AtomicInteger overlaps = new AtomicInteger();
        for (int t = 0; t < 8; t++) {
            takers.submit(() -> {
                for (Integer key = real.take(); key != null; key = step.next(real, key)) {
                    if (running.incrementAndGet(key) > 1) {
                        overlaps.incrementAndGet();
                    }
                    addsSeen.set(key, adds.get(key)); // what this run saw; an add after this must cause another
                    Thread.onSpinWait();
                    running.decrementAndGet(key);
                }
                return null;
            });
        }
        List<Future<?>> adders = new ArrayList<>();
        for (int a = 0; a < 3; a++) {
            adders.add(takers.submit(() -> {
                for (int i = 0; i < 20_000; i++) {
                    int key = ThreadLocalRandom.current().nextInt(keys);
                    adds.incrementAndGet(key);
                    real.add(key);
                    if (i % 1_000 == 0) {
                        // let the takers catch up now and then, so adds find them waiting
                        await().atMost(Duration.ofSeconds(2)).until(() -> real.depth() == 0);
                    }
                }
                return null;
            }));
        }
        for (Future<?> adder : adders) {
            adder.get(4, TimeUnit.SECONDS);
        }

        await().atMost(Duration.ofSeconds(2)).until(() -> IntStream.range(0, keys)
                .allMatch(key -> addsSeen.get(key) == adds.get(key)));
        assertThat(overlaps).hasValue(0);
        assertThat(real.depth()).isZero();
        real.shutdown();
    }

    private boolean waitingThreads(int count) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> thread.getState() == Thread.State.TIMED_WAITING
                        || thread.getState() == Thread.State.WAITING)
                .filter(thread -> Arrays.stream(thread.getStackTrace())
                        .anyMatch(frame -> frame.getClassName().equals(WorkQueue.class.getName())))
                .count() >= count;
    }

    private String takeQuietly() {
        return takeQuietly(queue);
    }

    private static String takeQuietly(WorkQueue<String> queue) {
        try {
            return queue.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
