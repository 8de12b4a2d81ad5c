package dev.watchkeeper.internal.watch;

import dev.watchkeeper.watch.WatchEvent;
import dev.watchkeeper.watch.WatchEventListener;
import dev.watchkeeper.internal.text.Plural;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decouples a slow or failing listener from its watcher: the watcher only puts each event into a bounded buffer,
 * and the listener runs on a thread of its own. Policy when the buffer is full: <b>the watcher never waits</b>;
 * the oldest buffered event is dropped to make room, the drop is counted ({@link #dropped()}) and logged at WARN
 * (the first drop of each overflow, then every 1000th). A listener that throws is logged with the watcher's name
 * and goes on receiving events, unless it threw a {@linkplain FatalErrors fatal} error: then it is closed and the
 * error ends its thread. The watcher's store is fed before any listener and is never affected.
 *
 * <pre>{@code
 * BufferedWatchEventListener<V1ConfigMap> buffered =
 *         new BufferedWatchEventListener<>(watcher.name(), "audit", 1000, threadFactory, audit::onEvent);
 * watcher.addListener(buffered);
 * buffered.start();
 * }</pre>
 */
public final class BufferedWatchEventListener<T> implements WatchEventListener<T>, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(BufferedWatchEventListener.class);

    private final String watcherName;
    private final String listenerName;
    private final BlockingQueue<WatchEvent<T>> buffer;
    private final ThreadFactory threads;
    private final WatchEventListener<T> delegate;
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong delivered = new AtomicLong();
    private volatile boolean overflowing;
    private volatile boolean closed;
    private Thread thread;

    /**
     * @param watcherName  the watcher's name, for logs
     * @param listenerName the listener's name, for logs ({@code bean.method})
     * @param capacity     how many events may wait for the listener
     * @param threads      where the listener's thread comes from; {@code null} = a daemon platform thread
     * @param delegate     the listener
     */
    public BufferedWatchEventListener(String watcherName, String listenerName, int capacity, ThreadFactory threads,
            WatchEventListener<T> delegate) {
        if (capacity < 1) {
            throw new IllegalArgumentException("the buffer of listener " + listenerName + " must hold at least one"
                    + " event, was " + capacity);
        }
        this.watcherName = Objects.requireNonNull(watcherName, "watcherName");
        this.listenerName = Objects.requireNonNull(listenerName, "listenerName");
        this.buffer = new ArrayBlockingQueue<>(capacity);
        this.threads = threads;
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    /** Starts the listener's thread. */
    public synchronized void start() {
        if (thread != null || closed) {
            return;
        }
        thread = threads != null ? threads.newThread(this::run) : new Thread(this::run);
        thread.setName("watchkeeper-listener-" + watcherName + "-" + listenerName);
        thread.setDaemon(true);
        thread.start();
    }

    /** Called on the watcher's thread: buffers the event, dropping the oldest when full; never blocks. */
    @Override
    public void onEvent(WatchEvent<T> event) {
        if (closed) {
            return;
        }
        while (!buffer.offer(event)) {
            if (buffer.poll() != null) {
                long drops = dropped.incrementAndGet();
                if (!overflowing || drops % 1000 == 0) {
                    log.warn("listener {} of watcher {} is too slow: its buffer of {} is full, dropping the"
                            + " oldest ({} dropped so far)", listenerName, watcherName,
                            Plural.count(buffer.remainingCapacity() + buffer.size(), "event"), drops);
                }
                overflowing = true;
            }
        }
    }

    /** Events dropped because the buffer was full. */
    public long dropped() {
        return dropped.get();
    }

    /** Events handed to the listener (whether it threw or not). */
    public long delivered() {
        return delivered.get();
    }

    public String watcherName() {
        return watcherName;
    }

    public String listenerName() {
        return listenerName;
    }

    /** Stops the listener's thread; buffered events are discarded. */
    @Override
    public void close() {
        Thread running;
        synchronized (this) {
            closed = true;
            running = thread;
        }
        buffer.clear();
        if (running != null) {
            running.interrupt();
        }
    }

    private void run() {
        while (!closed) {
            WatchEvent<T> event;
            try {
                event = buffer.take();
            } catch (InterruptedException e) {
                return;
            }
            if (buffer.isEmpty()) {
                overflowing = false;
            }
            try {
                delegate.onEvent(event);
            } catch (Throwable thrown) {
                if (FatalErrors.isFatal(thrown)) {
                    log.error("listener {} of watcher {} stops: it threw {} on {}", listenerName, watcherName,
                            thrown.getClass().getName(), event.getClass().getSimpleName(), thrown);
                    close();
                    throw thrown;
                }
                log.error("listener {} of watcher {} failed on {}; it keeps receiving events", listenerName,
                        watcherName, event.getClass().getSimpleName(), thrown);
            } finally {
                delivered.incrementAndGet();
            }
        }
    }
}
