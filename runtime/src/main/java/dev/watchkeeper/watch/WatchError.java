package dev.watchkeeper.watch;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * An error a watcher met, as a value a user can act on.
 *
 * @param kind       what failed
 * @param code       the HTTP (or Status) code, {@code 0} when there is none (connection refused, bad line)
 * @param message    an actionable message, e.g. {@code forbidden: cannot list configmaps in namespace default — grant list and watch};
 *                   never holds object contents or credentials
 * @param at         when it happened
 * @param retryAfter the server's {@code Retry-After}, or {@code null}; the next attempt waits at least this long
 */
public record WatchError(ErrorKind kind, int code, String message, Instant at, Duration retryAfter) {

    public WatchError {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(at, "at");
    }

    /** An error without a {@code Retry-After}. */
    public WatchError(ErrorKind kind, int code, String message, Instant at) {
        this(kind, code, message, at, null);
    }

    /** The recorder form, e.g. {@code Error(WatchError 410)} or {@code Error(WatchFailed)}. */
    public String label() {
        return "Error(" + kind.label() + (code == 0 ? "" : " " + code) + ")";
    }
}
