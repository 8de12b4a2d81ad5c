package dev.watchkeeper.internal.store;

import dev.watchkeeper.store.ObjectKey;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One index's map from index key to the keys of the objects filed under it. One thread writes it (the store's
 * writer), any number read it. A key's objects are held in the smallest shape that fits: one {@link ObjectKey}, an
 * immutable array of up to {@value #SMALL} replaced whole on each change, or a concurrent set beyond; so the common
 * index key with one or two objects (an owner's children, a unique label) costs a reference or a short array, not a
 * set. Readers see each shape either before or after a change, and a set's iteration sees every key present
 * throughout it.
 */
final class Postings {

    /** Beyond this many objects a key's array becomes a set: copying it on each change would cost more. */
    static final int SMALL = 8;

    /*
     * Estimated bytes on a 64-bit JVM with compressed references: a ConcurrentHashMap node (header, hash, key,
     * value, next) is 32 bytes, plus its share of the table (load factor 0.75, doubling) about 8.
     */
    private static final int NODE = 40;
    private static final int ARRAY_HEADER = 16;
    private static final int REFERENCE = 4;
    /** A key set view and its ConcurrentHashMap before any node: 16 + 64 + a 16-slot table. */
    private static final int SET = 16 + 64 + 80;

    private final Map<String, Object> byKey = new ConcurrentHashMap<>();
    private volatile long entries;
    private volatile long bytes;

    /** Files {@code object} under {@code key}; false if it was already. */
    boolean add(String key, ObjectKey object) {
        Object current = byKey.get(key);
        Object next;
        if (current == null) {
            next = object;
            bytes += NODE;
        } else if (current instanceof ObjectKey one) {
            if (one.equals(object)) {
                return false;
            }
            next = new ObjectKey[] {one, object};
        } else if (current instanceof ObjectKey[] few) {
            if (Arrays.asList(few).contains(object)) {
                return false;
            }
            if (few.length < SMALL) {
                ObjectKey[] more = Arrays.copyOf(few, few.length + 1);
                more[few.length] = object;
                next = more;
            } else {
                Set<ObjectKey> many = ConcurrentHashMap.newKeySet();
                many.addAll(Arrays.asList(few));
                many.add(object);
                next = many;
            }
        } else {
            if (!set(current).add(object)) {
                return false;
            }
            entries++;
            bytes += NODE;
            return true;
        }
        bytes += footprint(next) - footprint(current);
        byKey.put(key, next);
        entries++;
        return true;
    }

    /** Takes {@code object} out from under {@code key}; false if it was not there. */
    boolean remove(String key, ObjectKey object) {
        Object current = byKey.get(key);
        if (current instanceof ObjectKey one) {
            if (!one.equals(object)) {
                return false;
            }
            byKey.remove(key);
            bytes -= NODE;
        } else if (current instanceof ObjectKey[] few) {
            int at = Arrays.asList(few).indexOf(object);
            if (at < 0) {
                return false;
            }
            Object next = few.length == 2 ? few[1 - at] : without(few, at);
            bytes += footprint(next) - footprint(current);
            byKey.put(key, next);
        } else if (current != null) {
            Set<ObjectKey> many = set(current);
            if (!many.remove(object)) {
                return false;
            }
            bytes -= NODE;
            if (many.isEmpty()) {
                byKey.remove(key);
                bytes -= NODE + SET;
            }
        } else {
            return false;
        }
        entries--;
        return true;
    }

    /**
     * The keys of the objects filed under {@code key}, in no order; a copy the caller may sort. Read while the writer
     * takes an object out of a set and files it again, it can name that object twice.
     */
    List<ObjectKey> get(String key) {
        Object current = byKey.get(key);
        if (current == null) {
            return new ArrayList<>();
        }
        if (current instanceof ObjectKey one) {
            return new ArrayList<>(List.of(one));
        }
        if (current instanceof ObjectKey[] few) {
            return new ArrayList<>(Arrays.asList(few)); // a copy: the array is shared with other readers
        }
        return new ArrayList<>(set(current));
    }

    /** How many index keys it holds. */
    int keys() {
        return byKey.size();
    }

    /** How many (index key, object) pairs it holds. */
    long entries() {
        return entries;
    }

    /** An estimate of the bytes it holds beyond the keys' strings, which the objects' metadata shares. */
    long estimatedBytes() {
        return bytes;
    }

    private static ObjectKey[] without(ObjectKey[] few, int at) {
        ObjectKey[] fewer = new ObjectKey[few.length - 1];
        System.arraycopy(few, 0, fewer, 0, at);
        System.arraycopy(few, at + 1, fewer, at, few.length - at - 1);
        return fewer;
    }

    /** The bytes of a key's shape besides its map node. */
    private static long footprint(Object shape) {
        if (shape instanceof ObjectKey[] few) {
            return (ARRAY_HEADER + (long) REFERENCE * few.length + 7) / 8 * 8;
        }
        if (shape instanceof Set<?> many) {
            return SET + (long) NODE * many.size();
        }
        return 0;
    }

    @SuppressWarnings("unchecked")
    private static Set<ObjectKey> set(Object shape) {
        return (Set<ObjectKey>) shape;
    }
}
