package dev.watchkeeper.internal.events;

import java.time.Instant;
import java.util.Objects;

/**
 * One call to record an Event: about {@code regarding}, of {@code type} {@code Normal} or {@code Warning}, by
 * {@code component} ({@link Reporter#controller}), seen at {@code at}. Occurrences with the same {@link #key} within
 * a window become one Event with a series (docs/semantics.md §16).
 *
 * @param action what was done or failed (events.k8s.io requires one)
 * @param note   the human-readable message; cut to the API server's 1024 bytes when written
 */
public record Occurrence(Regarding regarding, String type, String reason, String action, String note,
        String component, Instant at) {

    public Occurrence {
        Objects.requireNonNull(regarding, "regarding");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(action, "action");
        Objects.requireNonNull(component, "component");
        Objects.requireNonNull(at, "at");
        note = note == null ? "" : note;
    }

    /** The object an Event is about; {@code namespace} is {@code null} for a cluster-scoped object. */
    public record Regarding(String apiVersion, String kind, String namespace, String name, String uid) {

        public Regarding {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(name, "name");
        }
    }

    /** What makes two occurrences the same Event: everything but the time. */
    record Key(Regarding regarding, String type, String reason, String action, String note, String component) {
    }

    Key key() {
        return new Key(regarding, type, reason, action, note, component);
    }
}
