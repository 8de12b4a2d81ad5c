package dev.watchkeeper.internal.watch;

import dev.watchkeeper.watch.WatchError;
import dev.watchkeeper.watch.WatchEvent;

/**
 * What a watcher's events add up to for its snapshot (docs/semantics.md §2): {@code synced}, the last error and the
 * counts. Written by the watcher's thread only, as each event is delivered.
 */
final class EventTally {

    private boolean synced;
    private boolean everSynced;
    private WatchError lastError;
    private long events;
    private long relists;
    private long errors;

    /** Counts {@code event}, before the store and listeners see it. */
    <T> void count(WatchEvent<T> event) {
        if (event instanceof WatchEvent.Init<T>) {
            if (everSynced) {
                relists++;
            }
            synced = false;
        } else if (event instanceof WatchEvent.InitDone<T>) {
            synced = true;
            everSynced = true;
        } else if (event instanceof WatchEvent.Failure<T> failure) {
            failed(failure.error());
        } else {
            events++;
        }
    }

    /** An error that is not an event (a listener's fatal error) but counts as one. */
    void failed(WatchError error) {
        errors++;
        lastError = error;
    }

    boolean synced() {
        return synced;
    }

    WatchError lastError() {
        return lastError;
    }

    long events() {
        return events;
    }

    long relists() {
        return relists;
    }

    long errors() {
        return errors;
    }
}
