package dev.watchkeeper.test.apiserver;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * The bounded history of changes that watches replay from. Not thread-safe: {@link ObjectStore} guards it.
 * Every change with a resourceVersion above {@link #horizon()} is retained.
 */
final class EventLog {

    private final int capacity;
    private final Deque<StoredEvent> events = new ArrayDeque<>();
    private long horizon;

    EventLog(int capacity, long initialResourceVersion) {
        if (capacity < 1) {
            throw new IllegalArgumentException("history capacity must be positive: " + capacity);
        }
        this.capacity = capacity;
        this.horizon = initialResourceVersion;
    }

    void append(StoredEvent event) {
        events.addLast(event);
        if (events.size() > capacity) {
            horizon = events.removeFirst().resourceVersion();
        }
    }

    /** The oldest resourceVersion a watch or continue token may start from. */
    long horizon() {
        return horizon;
    }

    /**
     * The changes of one resource after {@code resourceVersion}.
     *
     * @throws StatusException 410 Expired when older changes were dropped
     */
    List<StoredEvent> since(long resourceVersion, String groupResource) {
        if (resourceVersion < horizon) {
            throw Statuses.tooOldResourceVersion(resourceVersion, horizon);
        }
        List<StoredEvent> result = new ArrayList<>();
        for (StoredEvent event : events) {
            if (event.resourceVersion() > resourceVersion && event.groupResource().equals(groupResource)) {
                result.add(event);
            }
        }
        return result;
    }

    /** Drops all history: only {@code currentResourceVersion} and later remain valid starting points. */
    void compact(long currentResourceVersion) {
        events.clear();
        horizon = currentResourceVersion;
    }

    void forget(String groupResource) {
        events.removeIf(e -> e.groupResource().equals(groupResource));
    }
}
