package dev.watchkeeper.watch;

import java.time.Duration;
import java.time.Instant;

/**
 * A watcher's state after its latest transition: immutable, published without locks, read by the actuator
 * endpoint, health and metrics. Holds no object contents and no credentials.
 *
 * @param name                the watcher's name
 * @param resource            e.g. {@code v1/configmaps} (the plural guessed from the kind until discovery answers)
 * @param namespace           the namespace, or {@code null} for all namespaces
 * @param labelSelector       or {@code null}
 * @param fieldSelector       or {@code null}
 * @param phase               what it is doing
 * @param synced              the initial list is done and no relist is pending
 * @param objects             objects in its store
 * @param resourceVersion     where a rewatch resumes: the list's version, then each event's or bookmark's
 * @param consecutiveFailures failures since the last progress
 * @param currentDelay        the current backoff wait, or {@code null} when not backing off or unknown
 * @param nextAttemptAt       when the next attempt is due while backing off, or {@code null}
 * @param lastError           the latest error, or {@code null}
 * @param counts              totals since start
 * @param backOff             a description of the backoff policy in use
 * @param backOffSettings     the numbers of the built-in backoff policy in use, or {@code null} when the watcher
 *                            runs a policy of its own ({@code WatcherBuilder#backOffPolicy})
 * @param shard               the share of the uid-hash space a sharded watcher holds, or {@code null} for a watcher
 *                            that is not sharded
 */
public record WatcherSnapshot(String name, String resource, String namespace, String labelSelector,
        String fieldSelector, WatcherPhase phase, boolean synced, int objects, String resourceVersion,
        int consecutiveFailures, Duration currentDelay, Instant nextAttemptAt, WatchError lastError, Counts counts,
        String backOff, BackOff backOffSettings, Shard shard) {

    /**
     * The numbers of the built-in backoff policy: each wait is {@code d + rand·jitter·d}, {@code d} growing from
     * {@code initialInterval} by {@code multiplier} up to {@code maxInterval}.
     *
     * @param initialInterval first base delay
     * @param multiplier      growth per consecutive failure
     * @param maxInterval     cap of the base delay (jitter comes on top)
     * @param jitter          random extra fraction of the base delay
     * @param resetAfter      the streak starts over when a failure comes longer than this after the previous one
     * @param maxElapsedTime  the watcher gives up after a failure streak this long; {@code null} = never
     */
    public record BackOff(Duration initialInterval, double multiplier, Duration maxInterval, double jitter,
            Duration resetAfter, Duration maxElapsedTime) {
    }

    /**
     * A sharded watcher's filter (docs/sharding.md).
     *
     * @param by    what places an object in a slot
     * @param slots the slots it holds, e.g. {@code [0-31,64]}; {@code []} for none, {@code null} before its first
     *              assignment
     * @param mode           who filtered its last list
     * @param clientFiltered objects the watcher dropped since start as outside its share: sent by a server that did
     *                       not filter
     */
    public record Shard(By by, String slots, Mode mode, long clientFiltered) {

        /** A share whose watcher has dropped nothing. */
        public Shard(By by, String slots, Mode mode) {
            this(by, slots, mode, 0);
        }

        /** The uid whose hash places an object. */
        public enum By {
            /** The object's own {@code metadata.uid} (a sharded reconciler's primary). */
            OBJECT_UID,
            /** The uid of its controller owner (a sharded reconciler's owned objects). */
            CONTROLLER_OWNER_UID
        }

        /** Who filtered. The watcher filters every object itself in any case, so what it holds is the same. */
        public enum Mode {
            /** The server applied the watcher's {@code shardSelector}: its last list said so. */
            SERVER,
            /**
             * Only the watcher: the server ignored the selector (an older server or the feature gate off), or none
             * can be sent (by controller owner).
             */
            CLIENT,
            /**
             * Not known yet: no list answered, or a streaming list (whose answer does not say) before a one-object list
             * with the selector answered.
             */
            UNKNOWN
        }
    }

    /**
     * Totals since start.
     *
     * @param events  objects received (initial and changes)
     * @param relists lists started after the first complete sync
     * @param errors  error events
     */
    public record Counts(long events, long relists, long errors) {
    }
}
