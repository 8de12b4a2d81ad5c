package dev.watchkeeper.internal.watch;

import java.io.IOException;

/**
 * An open watch: decoded events one at a time. The reading thread closes it; another thread ends a blocked
 * {@link #next()} through {@link WatchApi#abort()}.
 */
public interface EventStream<T> extends AutoCloseable {

    /**
     * The next event, blocking until one arrives.
     *
     * @return the event, or {@code null} when the server ended the stream normally
     * @throws IOException when the stream broke, went idle too long, or sent a line that is not JSON
     */
    WireEvent<T> next() throws IOException;

    /** Lifts the deadline set for the initial events of a streaming list (once they have all arrived). */
    void clearDeadline();

    @Override
    void close();
}
