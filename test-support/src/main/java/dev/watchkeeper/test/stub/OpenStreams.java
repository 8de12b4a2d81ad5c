package dev.watchkeeper.test.stub;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Hands watch bodies from the script (which runs inside WireMock's request handling) to the
 * {@link StreamingFilter} (which writes them after WireMock is done), and ends every open stream on reset or close.
 */
final class OpenStreams {

    /** A body waiting to be written, with the signal that ends it early. */
    record Pending(StreamAnswer stream, CountDownLatch released) {
    }

    private final Map<String, Pending> pending = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong();
    private final AtomicInteger open = new AtomicInteger();
    private volatile CountDownLatch released = new CountDownLatch(1);

    /** Parks {@code stream} for the filter; the returned id travels in the marker header. */
    String register(StreamAnswer stream) {
        String id = Long.toString(ids.incrementAndGet());
        pending.put(id, new Pending(stream, released));
        return id;
    }

    Pending take(String id) {
        return pending.remove(id);
    }

    /** Ends every stream being written or waiting to be: idle ones finish with a clean end of stream. */
    void releaseAll() {
        CountDownLatch old = released;
        released = new CountDownLatch(1);
        pending.clear();
        old.countDown();
    }

    void opened() {
        open.incrementAndGet();
    }

    void closed() {
        synchronized (open) {
            open.decrementAndGet();
            open.notifyAll();
        }
    }

    /** Waits until no stream is open, for at most {@code millis}; lets released streams write their last chunk. */
    void awaitNoneOpen(long millis) {
        long deadline = System.nanoTime() + millis * 1_000_000;
        synchronized (open) {
            while (open.get() > 0) {
                long remaining = (deadline - System.nanoTime()) / 1_000_000;
                if (remaining <= 0) {
                    return;
                }
                try {
                    open.wait(remaining);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    /** How many watch bodies are being written or held open right now. */
    int openCount() {
        return open.get();
    }
}
