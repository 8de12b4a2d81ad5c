package dev.watchkeeper.internal.watch;

import dev.watchkeeper.store.CachedObject;

/** One line of a watch stream, decoded: what the state machine steps on. */
public sealed interface WireEvent<T> {

    /** The object-carrying event types. */
    enum ChangeType { ADDED, MODIFIED, DELETED }

    /** ADDED, MODIFIED or DELETED with its object (its model decoded on demand). */
    record Change<T>(ChangeType type, CachedObject<T> cached, String resourceVersion) implements WireEvent<T> {
    }

    /** A BOOKMARK: only a resourceVersion, possibly the end of a streaming list's initial events. */
    record Bookmark<T>(String resourceVersion, boolean initialEventsEnd) implements WireEvent<T> {
    }

    /** An ERROR event carrying a Status. */
    record ErrorStatus<T>(int code, String reason, String message) implements WireEvent<T> {
    }

    /**
     * A well-formed event that cannot be used: an object that does not decode, has no metadata, or an unknown
     * event type. {@code description} names it (namespace/name/rv where known), never its contents.
     */
    record Undecodable<T>(String description, String resourceVersion) implements WireEvent<T> {
    }
}
