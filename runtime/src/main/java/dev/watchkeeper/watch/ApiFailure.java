package dev.watchkeeper.watch;

import java.net.ConnectException;
import java.time.Duration;

/**
 * A failed API call, already phrased for the user: {@code forbidden: cannot list configmaps in namespace default
 * — grant list and watch}. Carries the HTTP code ({@code 0} without a response) and the server's
 * {@code Retry-After}, if any.
 */
public final class ApiFailure extends Exception {

    private static final long serialVersionUID = 1L;

    private final int code;
    private final transient Duration retryAfter;

    public ApiFailure(int code, String message, Duration retryAfter, Throwable cause) {
        super(message, cause);
        this.code = code;
        this.retryAfter = retryAfter;
    }

    public ApiFailure(int code, String message) {
        this(code, message, null, null);
    }

    public int code() {
        return code;
    }

    /** The server's Retry-After, or {@code null}. */
    public Duration retryAfter() {
        return retryAfter;
    }

    /** Whether nothing accepted the connection: the server is down or restarting, not answering wrongly. */
    public boolean connectionRefused() {
        return getCause() instanceof ConnectException;
    }
}
