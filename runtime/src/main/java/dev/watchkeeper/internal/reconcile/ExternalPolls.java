package dev.watchkeeper.internal.reconcile;

import dev.watchkeeper.internal.backoff.TimeSource;
import dev.watchkeeper.reconcile.Dependent;
import dev.watchkeeper.store.ObjectKey;
import io.kubernetes.client.common.KubernetesObject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ThreadFactory;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The polls of one reconciler's external dependents ({@link Dependent#pollEvery}): after each reconcile that ran one,
 * its resource is fetched again every poll interval for that key, on one thread of the reconciler started at the
 * first poll; when the state fetched differs from the last one known, the key is queued, so the reconcile puts it
 * back. A failed fetch is tried again after a doubling delay (the interval times 2, 4, ...; at most
 * {@link #MAX_DELAY}), with a warning at the first failure of a streak. A key is polled while its primary is in the
 * store; a reconcile or a cleanup of the key starts its poll over.
 */
final class ExternalPolls {

    static final Duration MAX_DELAY = Duration.ofMinutes(5);
    private static final Logger log = LoggerFactory.getLogger(ExternalPolls.class);

    private final String reconciler;
    private final TimeSource time;
    private final ThreadFactory threads;
    private final Function<ObjectKey, KubernetesObject> primaries;
    private final Consumer<ObjectKey> enqueue;
    private final DependentStats stats;
    private final Object monitor = new Object();
    /** Guarded by {@code monitor}. */
    private final Map<PollKey, Poll> polls = new HashMap<>();
    private Thread thread;
    private boolean closed;
    private boolean changed;

    private record PollKey(ObjectKey key, String dependent) {
    }

    private static final class Poll {
        final Dependent<KubernetesObject, Object> dependent;
        Object last;
        Instant due;
        int failures;

        Poll(Dependent<KubernetesObject, Object> dependent) {
            this.dependent = dependent;
        }
    }

    ExternalPolls(String reconciler, TimeSource time, ThreadFactory threads,
            Function<ObjectKey, KubernetesObject> primaries, Consumer<ObjectKey> enqueue, DependentStats stats) {
        this.reconciler = reconciler;
        this.time = time;
        this.threads = threads;
        this.primaries = primaries;
        this.enqueue = enqueue;
        this.stats = stats;
    }

    /** A reconcile found {@code actual} for {@code key}'s {@code dependent}: poll it from now on. */
    @SuppressWarnings("unchecked")
    void reconciled(ObjectKey key, Dependent<?, ?> dependent, Object actual) {
        synchronized (monitor) {
            if (closed) {
                return;
            }
            Poll poll = polls.computeIfAbsent(new PollKey(key, dependent.name()),
                    ignored -> new Poll((Dependent<KubernetesObject, Object>) dependent));
            poll.last = actual;
            poll.failures = 0;
            poll.due = time.clock().instant().plus(dependent.pollInterval());
            if (thread == null) {
                thread = threads.newThread(this::run);
                thread.setName("watchkeeper-polls-" + reconciler);
                thread.start();
            }
            changed = true;
            monitor.notifyAll();
        }
    }

    /** Stops polling for {@code key} (its dependents were deleted). */
    void forget(ObjectKey key) {
        synchronized (monitor) {
            polls.keySet().removeIf(poll -> poll.key().equals(key));
        }
    }

    /** How many keys' resources are polled now. */
    int polled() {
        synchronized (monitor) {
            return polls.size();
        }
    }

    void close() {
        synchronized (monitor) {
            closed = true;
            polls.clear();
            monitor.notifyAll();
        }
    }

    private void run() {
        try {
            for (List<Map.Entry<PollKey, Poll>> due = takeDue(); due != null; due = takeDue()) {
                due.forEach(entry -> poll(entry.getKey(), entry.getValue()));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Waits until a poll is due, and returns those due (their due time cleared while they run); {@code null} once
     * closed.
     */
    private List<Map.Entry<PollKey, Poll>> takeDue() throws InterruptedException {
        synchronized (monitor) {
            while (true) {
                if (closed) {
                    return null;
                }
                Instant now = time.clock().instant();
                List<Map.Entry<PollKey, Poll>> due = new ArrayList<>();
                Instant next = null;
                for (Map.Entry<PollKey, Poll> entry : polls.entrySet()) {
                    Instant at = entry.getValue().due;
                    if (at == null) {
                        continue;
                    }
                    if (!at.isAfter(now)) {
                        due.add(Map.entry(entry.getKey(), entry.getValue()));
                    } else if (next == null || at.isBefore(next)) {
                        next = at;
                    }
                }
                if (!due.isEmpty()) {
                    due.forEach(entry -> entry.getValue().due = null);
                    return due;
                }
                changed = false;
                time.await(monitor, next == null ? MAX_DELAY : Duration.between(now, next),
                        () -> changed || closed);
            }
        }
    }

    private void poll(PollKey key, Poll poll) {
        KubernetesObject primary = primaries.apply(key.key());
        if (primary == null) {
            synchronized (monitor) {
                polls.remove(key, poll);
            }
            return;
        }
        Object actual;
        try {
            Optional<Object> fetched = poll.dependent.externalResource().fetch(primary);
            actual = fetched.orElse(null);
        } catch (Exception e) {
            failed(key, poll, e);
            return;
        }
        stats.polled(key.dependent(), false);
        boolean differs;
        synchronized (monitor) {
            differs = !Objects.equals(actual, poll.last);
            poll.last = actual;
            poll.failures = 0;
            poll.due = polls.get(key) == poll ? time.clock().instant().plus(poll.dependent.pollInterval()) : null;
        }
        if (differs) {
            log.debug("reconciler {}: the external resource of dependent {} for {} changed; reconciling it", reconciler,
                    key.dependent(), key.key());
            enqueue.accept(key.key());
        }
    }

    private void failed(PollKey key, Poll poll, Exception error) {
        stats.polled(key.dependent(), true);
        Duration delay;
        synchronized (monitor) {
            poll.failures++;
            delay = delay(poll.dependent.pollInterval(), poll.failures);
            poll.due = polls.get(key) == poll ? time.clock().instant().plus(delay) : null;
        }
        if (poll.failures == 1) {
            log.warn("reconciler {}: polling the external resource of dependent {} for {} failed; polling again in {}",
                    reconciler, key.dependent(), key.key(), delay, error);
        } else {
            log.debug("reconciler {}: poll {} of dependent {} for {} failed again: {}", reconciler, poll.failures,
                    key.dependent(), key.key(), error.toString());
        }
    }

    /** The interval doubled once per failure, at most {@link #MAX_DELAY}. */
    static Duration delay(Duration interval, int failures) {
        Duration delay = interval;
        for (int i = 0; i < failures && delay.compareTo(MAX_DELAY) < 0; i++) {
            delay = delay.multipliedBy(2);
        }
        return delay.compareTo(MAX_DELAY) > 0 ? MAX_DELAY : delay;
    }
}
