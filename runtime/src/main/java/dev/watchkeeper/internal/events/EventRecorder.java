package dev.watchkeeper.internal.events;

import dev.watchkeeper.internal.api.ServerWaits;
import dev.watchkeeper.internal.backoff.TimeSource;
import dev.watchkeeper.internal.concurrent.DaemonThreads;
import dev.watchkeeper.internal.api.ApiErrors;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records Kubernetes Events as Kubernetes' own controllers write them (docs/semantics.md §16):
 * {@code events.k8s.io/v1} (core/v1 where that group is not served, see {@link HttpEventSink}), repeats folded
 * into one Event's {@code series} and at most {@value SpamFilter#BURST} new Events per object at once
 * ({@link EventSeriesBook}). {@link #record} only puts the occurrence in a queue of {@value #CAPACITY}, never
 * waiting: a full queue drops it (counted); one thread of its own, started on the first record, writes.
 *
 * <pre>{@code
 * EventRecorder recorder = EventRecorder.create(apiClient, Reporter.of("sample-app", identity), TimeSource.system());
 * recorder.record(regarding, "configmap-generator", "Warning", "InvalidSpec", "Reconcile", "spec.size < 0");
 * ...
 * recorder.close();   // writes what is queued and the series that grew since their last write
 * }</pre>
 */
public final class EventRecorder implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(EventRecorder.class);
    /** client-go's {@code maxQueuedEvents}. */
    static final int CAPACITY = 1000;
    /** How long {@link #close} waits for the last writes. */
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(5);

    private final EventSink sink;
    private final TimeSource time;
    private final BlockingQueue<Occurrence> queue;
    private final int capacity;
    private final EventSeriesBook book = new EventSeriesBook();
    private final Object monitor = new Object();
    private final AtomicLong written = new AtomicLong();
    private final AtomicLong aggregated = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong rateLimited = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    /** Whether the last write failed: the first failure of a run is a warning, the rest are debug. */
    private boolean failing;
    private volatile boolean dropping;
    private volatile int tracked;
    private volatile boolean closed;
    private Thread thread;

    EventRecorder(EventSink sink, TimeSource time, int capacity) {
        this.sink = Objects.requireNonNull(sink, "sink");
        this.time = Objects.requireNonNull(time, "time");
        this.queue = new ArrayBlockingQueue<>(capacity);
        this.capacity = capacity;
    }

    /** A recorder writing through {@code client} as {@code reporter}, stamping occurrences with {@code time}. */
    public static EventRecorder create(ApiClient client, Reporter reporter, TimeSource time) {
        ServerWaits.on(Objects.requireNonNull(client, "client"), time);
        return new EventRecorder(new HttpEventSink(client, reporter), time, CAPACITY);
    }

    /**
     * Queues an occurrence, now, of an Event about {@code regarding} by {@code component}; returns at once.
     *
     * @param type   {@code Normal} or {@code Warning}
     * @param action what was done or failed ({@code events.k8s.io} requires one)
     * @param note   the message
     */
    public void record(Occurrence.Regarding regarding, String component, String type, String reason, String action,
            String note) {
        Occurrence occurrence = new Occurrence(regarding, type, reason, action, note, component,
                time.clock().instant());
        if (closed || !queue.offer(occurrence)) {
            dropped.incrementAndGet();
            if (!dropping) {
                dropping = true; // once per run of drops: the counter has the rest
                log.warn("dropped the Event {} {} about {} {}: {}", type, reason, regarding.kind(), name(regarding),
                        closed ? "the recorder is closed" : "its queue of " + capacity
                                + " is full, Events come faster than they are written; the count of drops is in"
                                + " the counts (metric watchkeeper.events, outcome dropped)");
            }
            return;
        }
        dropping = false;
        startOnce();
        synchronized (monitor) {
            monitor.notifyAll();
        }
    }

    /** The totals since start. */
    public EventCounts counts() {
        return new EventCounts(written.get(), aggregated.get(), dropped.get(), rateLimited.get(), failed.get());
    }

    /** Series being counted now, for tests. */
    int tracked() {
        return tracked;
    }

    /** Occurrences waiting in the queue, for tests. */
    int queued() {
        return queue.size();
    }

    /**
     * Stops taking occurrences, writes those queued and every series that grew since its last write, and stops the
     * thread, waiting for it up to 5 s.
     */
    @Override
    public void close() {
        Thread running;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            running = thread;
        }
        synchronized (monitor) {
            monitor.notifyAll();
        }
        if (running != null && running != Thread.currentThread()) {
            try {
                running.join(CLOSE_WAIT.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private synchronized void startOnce() {
        if (thread == null && !closed) {
            thread = DaemonThreads.newThread(this::run);
            thread.setName("watchkeeper-events");
            thread.start();
        }
    }

    private void run() {
        List<EventWrite> writes = new ArrayList<>();
        try {
            while (true) {
                for (Occurrence occurrence; (occurrence = queue.poll()) != null; ) {
                    observe(occurrence, writes);
                }
                if (closed) {
                    book.endAll(writes);
                    writeAll(writes);
                    return;
                }
                book.due(time.clock().instant(), writes);
                writeAll(writes);
                tracked = book.tracked();
                awaitWork(book.nextDue());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void observe(Occurrence occurrence, List<EventWrite> writes) {
        switch (book.observe(occurrence, writes)) {
            case AGGREGATED -> aggregated.incrementAndGet();
            case RATE_LIMITED -> {
                rateLimited.incrementAndGet();
                log.debug("spam filter: dropped the Event {} {} about {} {}", occurrence.type(), occurrence.reason(),
                        occurrence.regarding().kind(), name(occurrence.regarding()));
            }
            case NEW -> { }
        }
    }

    /**
     * Waits for an occurrence, the close, or {@code next}. With no series to write or end, it waits on the monitor
     * alone: an idle recorder does not move a virtual clock.
     */
    private void awaitWork(Instant next) throws InterruptedException {
        synchronized (monitor) {
            if (!queue.isEmpty() || closed) {
                return;
            }
            if (next == null) {
                monitor.wait();
                return;
            }
            Duration delay = Duration.between(time.clock().instant(), next);
            if (!delay.isNegative() && !delay.isZero()) {
                time.await(monitor, delay, () -> !queue.isEmpty() || closed);
            }
        }
    }

    private void writeAll(List<EventWrite> writes) {
        for (EventWrite write : writes) {
            try {
                sink.write(write);
                written.incrementAndGet();
                failing = false;
            } catch (ApiException | RuntimeException e) {
                failed.incrementAndGet();
                String what = "could not write the Event " + write.first().reason() + " about "
                        + write.first().regarding().kind() + " " + name(write.first().regarding()) + ": "
                        + ApiErrors.describe(e);
                if (failing) {
                    log.debug(what, e);
                } else if (e instanceof ApiException) { // the server's answer says it all: no trace
                    log.warn("{}; until a write succeeds, further failures are logged at DEBUG", what);
                } else {
                    log.warn("{}; until a write succeeds, further failures are logged at DEBUG", what, e);
                }
                failing = true;
            }
        }
        writes.clear();
    }

    private static String name(Occurrence.Regarding regarding) {
        return regarding.namespace() == null ? regarding.name() : regarding.namespace() + "/" + regarding.name();
    }
}
