package dev.watchkeeper.internal.watch;

/**
 * The varying part of a list call; scope and selectors are fixed per watcher, the page size by {@link WatchOptions}.
 *
 * @param resourceVersion {@code null} for a consistent read of the most recent state, {@code "0"} for any version
 *                        (the API server's watch cache), else "not older than" this version
 * @param paged           whether to send {@code limit}
 * @param continueToken   the token of the page to fetch, or {@code null} for the first page
 * @param shardSelector   the {@code shardSelector} parameter of a sharded watcher, or {@code null}; sent on every page,
 *                        since a continue token does not remember it
 */
public record ListRequest(String resourceVersion, boolean paged, String continueToken, String shardSelector) {

    /** The version that asks for any state the server has at hand, its watch cache's. */
    static final String ANY_VERSION = "0";

    public ListRequest {
        if (continueToken != null && (resourceVersion != null || !paged)) {
            // The API server refuses a resourceVersion alongside a continue token, and a token implies paging.
            throw new IllegalArgumentException("a continued list is paged and has no resourceVersion");
        }
    }

    /** The first page of a consistent list. */
    public static ListRequest consistent() {
        return new ListRequest(null, true, null, null);
    }

    /** A list at any version, paged in case the server has no watch cache to serve it from. */
    public static ListRequest anyVersion() {
        return new ListRequest(ANY_VERSION, true, null, null);
    }

    /** A list no older than {@code resourceVersion}. */
    public static ListRequest notOlderThan(String resourceVersion, boolean paged) {
        return new ListRequest(resourceVersion, paged, null, null);
    }

    /** The page after this one. */
    public ListRequest next(String token) {
        return new ListRequest(null, true, token, shardSelector);
    }

    /** This request with {@code selector} as its {@code shardSelector} ({@code null} for none). */
    public ListRequest withShardSelector(String selector) {
        return new ListRequest(resourceVersion, paged, continueToken, selector);
    }

    /** Whether this first page names a version, so that the server may refuse it as expired or too large. */
    boolean namesVersion() {
        return resourceVersion != null && continueToken == null;
    }
}
