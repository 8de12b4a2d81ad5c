package dev.watchkeeper.internal.watch;

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
    private final boolean resourceVersionTooLarge;

    public ApiFailure(int code, String message, Duration retryAfter, Throwable cause) {
        this(code, message, retryAfter, cause, false);
    }

    /**
     * @param resourceVersionTooLarge the server's Status names the cause {@code ResourceVersionTooLarge}: it has not
     *                                reached the requested resourceVersion yet
     */
    public ApiFailure(int code, String message, Duration retryAfter, Throwable cause,
            boolean resourceVersionTooLarge) {
        super(message, cause);
        this.code = code;
        this.retryAfter = retryAfter;
        this.resourceVersionTooLarge = resourceVersionTooLarge;
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

    /** Whether the server refused a resourceVersion it has not reached yet ("Too large resource version"). */
    public boolean resourceVersionTooLarge() {
        return resourceVersionTooLarge;
    }

    /** Whether nothing accepted the connection: the server is down or restarting, not answering wrongly. */
    public boolean connectionRefused() {
        return getCause() instanceof ConnectException;
    }
}
