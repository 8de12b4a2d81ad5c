package dev.watchkeeper.internal.events;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * client-go's {@code EventSourceObjectSpamFilter}: a token bucket per regarding object, {@value #BURST} tokens and one
 * more every {@link #REFILL}, over the {@value #OBJECTS} objects seen last. Each new Event about the object takes a
 * token; occurrences folded into a series take none, so one repeated failure never silences the others.
 */
final class SpamFilter {

    /** client-go's {@code defaultSpamBurst}. */
    static final int BURST = 25;
    /** client-go's {@code defaultSpamQPS}: 1/300. */
    static final Duration REFILL = Duration.ofMinutes(5);
    /** client-go's {@code maxLruCacheEntries}. */
    static final int OBJECTS = 4096;

    private final Map<Occurrence.Regarding, Bucket> buckets = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Occurrence.Regarding, Bucket> eldest) {
            return size() > OBJECTS;
        }
    };

    /** Takes a token of {@code regarding}'s bucket at {@code now}; {@code false} when it is empty. */
    boolean allow(Occurrence.Regarding regarding, Instant now) {
        return buckets.computeIfAbsent(regarding, r -> new Bucket(now)).take(now);
    }

    private static final class Bucket {

        private double tokens = BURST;
        private Instant last;

        Bucket(Instant now) {
            this.last = now;
        }

        boolean take(Instant now) {
            if (now.isAfter(last)) {
                tokens = Math.min(BURST, tokens + Duration.between(last, now).toNanos() / (double) REFILL.toNanos());
                last = now;
            }
            if (tokens < 1) {
                return false;
            }
            tokens -= 1;
            return true;
        }
    }
}
