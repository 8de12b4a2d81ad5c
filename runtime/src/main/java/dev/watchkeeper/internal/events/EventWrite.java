package dev.watchkeeper.internal.events;

import java.time.Instant;

/**
 * A write the recorder makes: the first occurrence creates the Event; a series writes its count and the time of its
 * latest occurrence onto it (and creates it again, with the series, if it is gone).
 */
sealed interface EventWrite {

    /** The Event: its namespace and name, and its first occurrence. */
    Occurrence first();

    String namespace();

    String name();

    /** The Event of a first occurrence, without a series. */
    record Create(Occurrence first, String namespace, String name) implements EventWrite {
    }

    /** {@code count} occurrences so far, the latest at {@code lastObserved}. */
    record Series(Occurrence first, String namespace, String name, int count, Instant lastObserved)
            implements EventWrite {
    }
}
