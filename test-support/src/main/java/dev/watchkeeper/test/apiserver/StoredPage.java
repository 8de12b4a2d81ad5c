package dev.watchkeeper.test.apiserver;

import com.google.gson.JsonObject;

import java.util.List;

/**
 * One page of a list.
 *
 * @param resourceVersion the store's resourceVersion when the page was taken
 * @param items           the selected objects, in namespace and name order
 * @param encoded         each item as JSON, as {@link Json#GSON} writes it (same order)
 * @param more            whether selected objects follow the last item
 * @param remaining       how many objects follow, or {@code null} when a selector makes that unknown
 */
record StoredPage(long resourceVersion, List<JsonObject> items, List<byte[]> encoded, boolean more, Long remaining) {
}
