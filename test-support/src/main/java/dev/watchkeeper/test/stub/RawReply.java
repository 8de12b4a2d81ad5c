package dev.watchkeeper.test.stub;

import java.util.Objects;

/**
 * A response sent as is, e.g. a proxy's HTML page with status 200 where JSON was expected.
 *
 * @param status      the HTTP status
 * @param contentType the {@code Content-Type} header
 * @param body        the body, sent verbatim
 */
public record RawReply(int status, String contentType, String body) implements ListAnswer, WatchAnswer {

    public RawReply {
        Objects.requireNonNull(contentType, "contentType");
        Objects.requireNonNull(body, "body");
    }
}
