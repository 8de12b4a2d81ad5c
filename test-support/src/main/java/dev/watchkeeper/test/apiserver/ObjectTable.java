package dev.watchkeeper.test.apiserver;

import com.google.gson.JsonObject;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * The objects of one resource by key, and a sorted index of them that paged lists binary-search: a page costs
 * O(log n + page), so reading n objects in pages costs O(n) in all, not O(n) per page. The index is rebuilt on
 * the first list after a change. A listed object's JSON is kept until the object changes, so listing the same
 * objects again (a relist, a second client) copies bytes instead of encoding them again; that doubles the memory
 * of listed objects, a fair price in a test server. Not thread-safe: {@link ObjectStore} guards it.
 */
final class ObjectTable {

    private final TreeMap<StoredKey, JsonObject> objects = new TreeMap<>();
    private final Map<StoredKey, byte[]> encodings = new HashMap<>();
    private StoredKey[] keys;
    private JsonObject[] values;

    JsonObject get(StoredKey key) {
        return objects.get(key);
    }

    boolean contains(StoredKey key) {
        return objects.containsKey(key);
    }

    void put(StoredKey key, JsonObject object) {
        objects.put(key, object);
        encodings.remove(key);
        keys = null;
        values = null;
    }

    void remove(StoredKey key) {
        if (objects.remove(key) != null) {
            encodings.remove(key);
            keys = null;
            values = null;
        }
    }

    /** The objects of {@code namespace} ({@code null}: all), in namespace and name order. */
    Collection<JsonObject> values(String namespace) {
        return namespace == null ? objects.values()
                : objects.subMap(first(namespace), true, first(namespace + "\0"), false).values();
    }

    /**
     * Up to {@code limit} objects ({@code 0}: all) that {@code filter} selects, after {@code after} ({@code null}:
     * from the first), in namespace and name order, with {@code past} standing in for the current state of the
     * objects it names (a {@code null} value: the object did not exist then).
     */
    StoredPage page(WatchFilter filter, StoredKey after, long limit, long resourceVersion,
                    NavigableMap<StoredKey, JsonObject> past) {
        if (keys == null) {
            keys = objects.keySet().toArray(StoredKey[]::new);
            values = objects.values().toArray(JsonObject[]::new);
        }
        int from = 0;
        int to = keys.length;
        NavigableMap<StoredKey, JsonObject> replaced = past;
        if (filter.namespace() != null) {
            from = firstNotBelow(first(filter.namespace()));
            to = firstNotBelow(first(filter.namespace() + "\0"));
            replaced = replaced.subMap(first(filter.namespace()), true, first(filter.namespace() + "\0"), false);
        }
        if (after != null) {
            int next = firstNotBelow(after);
            from = Math.max(from, next < keys.length && keys[next].equals(after) ? next + 1 : next);
            replaced = replaced.tailMap(after, false);
        }
        int max = limit <= 0 || limit > Integer.MAX_VALUE ? Integer.MAX_VALUE : (int) limit;
        boolean everything = filter.selectsByNamespaceOnly();
        if (replaced.isEmpty()) {
            return currentPage(filter, from, to, max, everything, resourceVersion);
        }
        List<JsonObject> items = new ArrayList<>();
        List<byte[]> encoded = new ArrayList<>();
        Iterator<Map.Entry<StoredKey, JsonObject>> then = replaced.entrySet().iterator();
        Map.Entry<StoredKey, JsonObject> stand = then.hasNext() ? then.next() : null;
        long remaining = 0;
        int i = from;
        while (i < to || stand != null) {
            int order = stand == null ? -1 : i >= to ? 1 : keys[i].compareTo(stand.getKey());
            JsonObject object = order < 0 ? values[i] : stand.getValue();
            int index = order < 0 ? i : -1;
            if (order <= 0) {
                i++;
            }
            if (order >= 0) {
                stand = then.hasNext() ? then.next() : null;
            }
            if (object == null || !(everything || filter.matches(object))) {
                continue;
            }
            if (items.size() < max) {
                items.add(object);
                encoded.add(index >= 0 ? encoded(index) : Json.GSON.toJson(object).getBytes(StandardCharsets.UTF_8));
            } else if (everything) {
                remaining++;
            } else {
                // Like the real server, no remainingItemCount under a selector.
                return new StoredPage(resourceVersion, items, encoded, true, null);
            }
        }
        return new StoredPage(resourceVersion, items, encoded, remaining > 0, everything ? remaining : null);
    }

    private StoredPage currentPage(WatchFilter filter, int from, int to, int max, boolean everything,
                                   long resourceVersion) {
        List<JsonObject> items = new ArrayList<>();
        List<byte[]> encoded = new ArrayList<>();
        int i = from;
        for (; i < to && items.size() < max; i++) {
            if (everything || filter.matches(values[i])) {
                items.add(values[i]);
                encoded.add(encoded(i));
            }
        }
        if (everything) {
            return new StoredPage(resourceVersion, items, encoded, i < to, (long) Math.max(0, to - i));
        }
        // Like the real server, no remainingItemCount under a selector: counting would filter the whole rest.
        boolean more = false;
        for (; i < to && !more; i++) {
            more = filter.matches(values[i]);
        }
        return new StoredPage(resourceVersion, items, encoded, more, null);
    }

    private byte[] encoded(int index) {
        return encodings.computeIfAbsent(keys[index],
                key -> Json.GSON.toJson(values[index]).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The least key of {@code namespace}: keys order by namespace, then name, and "" is the least name. The keys of
     * a namespace end below {@code first(namespace + "\0")}, the least key of the next possible namespace.
     */
    private static StoredKey first(String namespace) {
        return new StoredKey(namespace, "");
    }

    private int firstNotBelow(StoredKey key) {
        int found = Arrays.binarySearch(keys, key);
        return found >= 0 ? found : -found - 1;
    }
}
