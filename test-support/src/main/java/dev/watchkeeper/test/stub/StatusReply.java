package dev.watchkeeper.test.stub;

import java.util.Objects;

/**
 * An API error: the HTTP {@code code} with a {@code Status} object as the body, shaped like a real API server's
 * (docs/semantics.md §12). Build them with {@link Replies#forbidden}, {@link Replies#crdMissing()},
 * {@link Replies#tooManyRequests(int)}, {@link Replies#status(int)} and friends.
 *
 * @param code              the HTTP status, also the Status's {@code code}
 * @param reason            the Status's {@code reason}, e.g. {@code Forbidden}
 * @param message           the Status's {@code message}
 * @param json              the whole Status object as sent
 * @param retryAfterSeconds the {@code Retry-After} header, or {@code null} for none
 */
public record StatusReply(int code, String reason, String message, String json, Integer retryAfterSeconds)
        implements ListAnswer, WatchAnswer {

    public StatusReply {
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(json, "json");
    }
}
