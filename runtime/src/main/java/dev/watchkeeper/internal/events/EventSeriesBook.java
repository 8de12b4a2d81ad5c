package dev.watchkeeper.internal.events;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * Folds occurrences into Events as client-go's {@code tools/events} broadcaster does: the first occurrence of a
 * {@link Occurrence#key key} creates an Event without a series; the second within {@link #WINDOW} starts the series
 * ({@code count: 2}) at once; later ones only count, and the series is written on a {@link #HEARTBEAT} when it grew,
 * and once more when it ends ({@link #WINDOW} without an occurrence) if it grew since. So a series of any length
 * costs at most {@code 2 + elapsed / HEARTBEAT + 1} writes. A new Event passes the {@link SpamFilter} first. Used by
 * one thread.
 */
final class EventSeriesBook {

    /** client-go's {@code refreshTime}. */
    static final Duration HEARTBEAT = Duration.ofMinutes(6);
    /** client-go's {@code finishTime}: how long after its latest occurrence a series ends. */
    static final Duration WINDOW = Duration.ofMinutes(6);
    /** Series tracked at most; beyond, the least recently seen one ends early (written if it grew). */
    static final int SERIES = 4096;
    /** The API server's limit on an Event's name. */
    private static final int NAME_LIMIT = 253;

    /** What became of an occurrence. */
    enum Outcome {
        /** A new Event. */
        NEW,
        /** Counted in an Event's series. */
        AGGREGATED,
        /** Dropped by the spam filter. */
        RATE_LIMITED
    }

    private final SpamFilter spam = new SpamFilter();
    private final LinkedHashMap<Occurrence.Key, Series> series = new LinkedHashMap<>(16, 0.75f, true);
    private long lastStamp;

    /** Counts {@code occurrence}; the write it needs, if any, goes to {@code writes}. */
    Outcome observe(Occurrence occurrence, List<EventWrite> writes) {
        Occurrence.Key key = occurrence.key();
        Series known = series.get(key);
        if (known != null && known.lastObserved.plus(WINDOW).isAfter(occurrence.at())) {
            known.count = known.count == Integer.MAX_VALUE ? known.count : known.count + 1;
            known.lastObserved = occurrence.at();
            if (known.count == 2) {
                writes.add(known.written(occurrence.at()));
            }
            return Outcome.AGGREGATED;
        }
        if (known != null) { // ended, though its time to be swept had not come yet
            series.remove(key);
            known.last(writes);
        }
        if (!spam.allow(occurrence.regarding(), occurrence.at())) {
            return Outcome.RATE_LIMITED;
        }
        Series started = new Series(occurrence, name(occurrence));
        series.put(key, started);
        writes.add(new EventWrite.Create(occurrence, started.namespace, started.name));
        if (series.size() > SERIES) {
            Iterator<Series> eldest = series.values().iterator();
            Series evicted = eldest.next();
            eldest.remove();
            evicted.last(writes);
        }
        return Outcome.NEW;
    }

    /** The heartbeat writes and ended series due at {@code now}. */
    void due(Instant now, List<EventWrite> writes) {
        for (Iterator<Series> it = series.values().iterator(); it.hasNext(); ) {
            Series tracked = it.next();
            if (!tracked.lastObserved.plus(WINDOW).isAfter(now)) {
                it.remove();
                tracked.last(writes);
            } else if (tracked.grew() && !tracked.lastWritten.plus(HEARTBEAT).isAfter(now)) {
                writes.add(tracked.written(now));
            }
        }
    }

    /** Every series that grew since written, ending them all (the recorder closes). */
    void endAll(List<EventWrite> writes) {
        series.values().forEach(tracked -> tracked.last(writes));
        series.clear();
    }

    /** When {@link #due} next has something to do; {@code null} when no series is tracked. */
    Instant nextDue() {
        Instant next = null;
        for (Series tracked : series.values()) {
            Instant end = tracked.lastObserved.plus(WINDOW);
            Instant at = tracked.grew() ? min(end, tracked.lastWritten.plus(HEARTBEAT)) : end;
            next = next == null ? at : min(next, at);
        }
        return next;
    }

    int tracked() {
        return series.size();
    }

    /**
     * As client-go names them, {@code <regarding name>.<hex time in ns>}, the stamp kept rising within this book so
     * two Events in the same nanosecond (a virtual clock) still differ.
     */
    private String name(Occurrence occurrence) {
        Instant at = occurrence.at();
        long stamp = Math.max(at.getEpochSecond() * 1_000_000_000L + at.getNano(), lastStamp + 1);
        lastStamp = stamp;
        String suffix = "." + Long.toHexString(stamp);
        String base = occurrence.regarding().name();
        return (base.length() + suffix.length() > NAME_LIMIT ? base.substring(0, NAME_LIMIT - suffix.length())
                : base) + suffix;
    }

    private static Instant min(Instant a, Instant b) {
        return a.isBefore(b) ? a : b;
    }

    private static final class Series {

        final Occurrence first;
        final String namespace;
        final String name;
        int count = 1;
        int writtenCount = 1;
        Instant lastObserved;
        Instant lastWritten;

        Series(Occurrence first, String name) {
            this.first = first;
            // Events about cluster-scoped objects live in "default", as client-go puts them.
            this.namespace = first.regarding().namespace() != null ? first.regarding().namespace() : "default";
            this.name = name;
            this.lastObserved = first.at();
            this.lastWritten = first.at();
        }

        boolean grew() {
            return count > writtenCount;
        }

        EventWrite written(Instant now) {
            writtenCount = count;
            lastWritten = now;
            return new EventWrite.Series(first, namespace, name, count, lastObserved);
        }

        void last(List<EventWrite> writes) {
            if (grew()) {
                writes.add(written(lastObserved));
            }
        }
    }
}
