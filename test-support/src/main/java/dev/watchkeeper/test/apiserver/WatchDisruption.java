package dev.watchkeeper.test.apiserver;

import java.time.Duration;

/** Something an open watch does at once, before events still queued for it; injected through {@link InMemoryApiServer}. */
sealed interface WatchDisruption {

    /** Write a line that is not JSON, then go on streaming. */
    record MalformedLine() implements WatchDisruption {
    }

    /** Write the first half of a line, then drop the connection without the terminating chunk. */
    record Truncate() implements WatchDisruption {
    }

    /** Drop the connection without the terminating chunk, as a reset does. */
    record Reset() implements WatchDisruption {
    }

    /** Send an ERROR 410 event and end, though history is kept (a watch cache that fell behind). */
    record Expire() implements WatchDisruption {
    }

    /** Send nothing at all (no event, no bookmark) for {@code silence}, then drop the connection. */
    record Stall(Duration silence) implements WatchDisruption {
    }
}
