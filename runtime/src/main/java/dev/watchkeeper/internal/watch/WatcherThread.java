package dev.watchkeeper.internal.watch;

import java.time.Duration;
import java.util.concurrent.ThreadFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A watcher's one thread and whether the watcher is closed: started at most once and never after close; on close,
 * interrupted and waited for briefly.
 */
final class WatcherThread {

    /** The watcher's logger: a thread that does not stop is the watcher's news. */
    private static final Logger log = LoggerFactory.getLogger(Watcher.class);
    private static final Duration CLOSE_WAIT = Duration.ofMillis(900);

    private final String name;
    private final ThreadFactory factory;

    private volatile boolean closed;
    private Thread thread;

    /** @param factory where the thread comes from, or {@code null} for a new platform thread */
    WatcherThread(String name, ThreadFactory factory) {
        this.name = name;
        this.factory = factory;
    }

    /** Runs {@code loop} on the thread, named after the watcher. */
    synchronized void start(Runnable loop) {
        if (thread != null) {
            throw new IllegalStateException("watcher " + name + " was already started");
        }
        if (closed) {
            throw new IllegalStateException("watcher " + name + " is closed");
        }
        thread = factory != null ? factory.newThread(loop) : new Thread(loop);
        thread.setName("watchkeeper-" + name);
        thread.start();
    }

    /** Marks the watcher closed; returns {@code false} when it already was. */
    synchronized boolean markClosed() {
        if (closed) {
            return false;
        }
        closed = true;
        return true;
    }

    boolean closed() {
        return closed;
    }

    /**
     * Interrupts the thread and waits up to {@code CLOSE_WAIT} for it to end; returns {@code false} when it was never
     * started. Called after {@link #markClosed}, so no thread starts from then on.
     */
    boolean stop() {
        Thread running;
        synchronized (this) {
            running = thread;
        }
        if (running == null) {
            return false;
        }
        running.interrupt();
        try {
            running.join(CLOSE_WAIT.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (running.isAlive()) {
            log.warn("watcher {} did not stop within {} ms", name, CLOSE_WAIT.toMillis());
        }
        return true;
    }

    /** Whether the thread was started and is still running. */
    boolean isRunning() {
        Thread running;
        synchronized (this) {
            running = thread;
        }
        return running != null && running.isAlive();
    }
}
