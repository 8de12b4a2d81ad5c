package dev.watchkeeper.internal.watch;

import dev.watchkeeper.store.CachedObject;
import java.util.List;

/**
 * One page of a list call.
 *
 * @param items           the objects (their models decoded on demand)
 * @param resourceVersion the list's resourceVersion, or {@code null}
 * @param continueToken   the token for the next page, or {@code null} on the last page
 * @param undecodable     descriptions of items that could not be decoded and were skipped
 * @param shardSelector   {@code metadata.shardInfo.selector}: the shard selector the server applied, in its own form,
 *                        or {@code null} when it applied none (no selector sent, or a server that ignores it)
 */
public record ListPage<T>(List<CachedObject<T>> items, String resourceVersion, String continueToken,
        List<String> undecodable, String shardSelector) {

    public ListPage {
        items = List.copyOf(items);
        undecodable = List.copyOf(undecodable);
    }

    /** A page the server did not shard-filter. */
    public ListPage(List<CachedObject<T>> items, String resourceVersion, String continueToken, List<String> undecodable) {
        this(items, resourceVersion, continueToken, undecodable, null);
    }

    public boolean isLast() {
        return continueToken == null || continueToken.isEmpty();
    }
}
