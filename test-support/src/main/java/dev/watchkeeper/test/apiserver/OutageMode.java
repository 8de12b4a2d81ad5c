package dev.watchkeeper.test.apiserver;

/**
 * How {@link InMemoryApiServer#outage(java.time.Duration, OutageMode)} fails requests.
 */
public enum OutageMode {
    /** Every request is answered {@code 503 ServiceUnavailable}. */
    SERVICE_UNAVAILABLE,
    /** The server stops listening, so connections are refused; it listens on the same port again afterwards. */
    CONNECTION_REFUSED
}
