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
 */
public record ListPage<T>(List<CachedObject<T>> items, String resourceVersion, String continueToken, List<String> undecodable) {

    public ListPage {
        items = List.copyOf(items);
        undecodable = List.copyOf(undecodable);
    }

    public boolean isLast() {
        return continueToken == null || continueToken.isEmpty();
    }
}
