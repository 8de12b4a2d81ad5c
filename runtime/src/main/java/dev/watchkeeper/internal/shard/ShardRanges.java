package dev.watchkeeper.internal.shard;

import java.util.List;

/**
 * The part of the hash space a shard owns: one or more {@link HashRange}s, in the order given (the server echoes a
 * selector's ranges in its order; they may touch or overlap).
 *
 * <pre>{@code
 * ShardRanges mine = ShardRanges.of(HashRange.share(0, 3));
 * mine.contains(UidHash.of(uid));
 * mine.selector();   // "shardRange(object.metadata.uid, '0x0000000000000000', '0x5555555555555555')"
 * }</pre>
 *
 * @param ranges at least one range
 */
public record ShardRanges(List<HashRange> ranges) {

    /** @throws IllegalArgumentException when there is no range: the server refuses an empty selector */
    public ShardRanges {
        ranges = List.copyOf(ranges);
        if (ranges.isEmpty()) {
            throw new IllegalArgumentException("a shard needs at least one hash range");
        }
    }

    /** The given ranges. */
    public static ShardRanges of(HashRange... ranges) {
        return new ShardRanges(List.of(ranges));
    }

    /** The whole hash space. */
    public static ShardRanges all() {
        return of(HashRange.toTop(0));
    }

    /** Whether {@code hash} (unsigned) lies in one of the ranges. */
    public boolean contains(long hash) {
        for (HashRange range : ranges) {
            if (range.contains(hash)) {
                return true;
            }
        }
        return false;
    }

    /** The {@code shardSelector} query parameter that asks the server for the objects whose uid hashes in here. */
    public String selector() {
        return new ShardSelector(ShardField.UID, this).toString();
    }
}
