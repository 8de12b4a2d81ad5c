package dev.watchkeeper.internal.backoff;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The one reading of a server's {@code Retry-After} header: a whole number of seconds, zero or more, at most
 * {@link #MAX}. Anything else (an HTTP date, a negative or non-numeric value) is ignored, so the caller's own backoff
 * decides.
 */
public final class RetryAfter {

    /**
     * The longest wait a header can ask for. API servers ask for a second or a few; a value of hours or years is a
     * broken header or proxy, and obeying it would stop a watcher for that long.
     */
    public static final Duration MAX = Duration.ofMinutes(5);

    private RetryAfter() {
    }

    /** The wait {@code header} asks for, or {@code null} when it is absent or not a number of seconds. */
    public static Duration parse(String header) {
        if (header == null) {
            return null;
        }
        try {
            long seconds = Long.parseLong(header.trim());
            return seconds < 0 ? null : Duration.ofSeconds(Math.min(seconds, MAX.toSeconds()));
        } catch (NumberFormatException notSeconds) {
            return null;
        }
    }

    /** The wait asked for by a {@code Retry-After} among {@code headers} (any case), or {@code null}. */
    public static Duration in(Map<String, List<String>> headers) {
        if (headers == null) {
            return null;
        }
        for (Map.Entry<String, List<String>> header : headers.entrySet()) {
            if ("Retry-After".equalsIgnoreCase(header.getKey()) && header.getValue() != null
                    && !header.getValue().isEmpty()) {
                return parse(header.getValue().get(0));
            }
        }
        return null;
    }
}
