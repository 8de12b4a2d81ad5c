package dev.watchkeeper.watch;

/** The closed set of watcher error kinds (docs/semantics.md §7). */
public enum ErrorKind {
    /** A list call (any page) failed, or discovery of the resource failed before it. */
    INITIAL_LIST_FAILED("InitialListFailed"),
    /** A watch call was rejected before any event arrived. */
    WATCH_START_FAILED("WatchStartFailed"),
    /** The server sent an ERROR event carrying a Status. */
    WATCH_ERROR("WatchError"),
    /** The stream broke: reset, a line that is not JSON, idle timeout, or a watch that ended without progress. */
    WATCH_FAILED("WatchFailed"),
    /** A well-formed event whose object could not be decoded; the event is skipped. */
    DECODE_FAILED("DecodeFailed"),
    /** A list page carried neither a resourceVersion nor a continue token. */
    NO_RESOURCE_VERSION("NoResourceVersion");

    private final String label;

    ErrorKind(String label) {
        this.label = label;
    }

    /** The name used in recorder strings, logs and the actuator endpoint, e.g. {@code WatchStartFailed}. */
    public String label() {
        return label;
    }
}
