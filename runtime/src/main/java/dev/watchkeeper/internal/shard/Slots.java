package dev.watchkeeper.internal.shard;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * A set of the {@value #COUNT} equal slots the 64-bit uid-hash space is cut into: slot {@code i} holds the hashes
 * whose top seven bits are {@code i}, {@code [i·2^57, (i+1)·2^57)}. Sharding assigns slots, not arbitrary ranges, so
 * every replica computes the same ranges and a selector stays short (adjacent slots make one range).
 *
 * <pre>{@code
 * Slots mine = Slots.of(0, 1, 2, 64);
 * mine.contains(UidHash.of(uid));
 * mine.ranges();   // two ranges: slots 0-2 and slot 64
 * }</pre>
 *
 * @param low  slots 0 to 63, bit {@code i} for slot {@code i}
 * @param high slots 64 to 127, bit {@code i - 64} for slot {@code i}
 */
public record Slots(long low, long high) {

    /** How many slots the hash space is cut into. */
    public static final int COUNT = 128;
    private static final int SHIFT = 57;

    /** No slot. */
    public static Slots none() {
        return new Slots(0, 0);
    }

    /** Every slot: the whole hash space. */
    public static Slots all() {
        return new Slots(-1L, -1L);
    }

    /** The given slots. */
    public static Slots of(int... slots) {
        Slots result = none();
        for (int slot : slots) {
            result = result.with(slot);
        }
        return result;
    }

    /** The slot a hash (unsigned) falls in. */
    public static int slotOf(long hash) {
        return (int) (hash >>> SHIFT);
    }

    /** These slots and {@code slot}. */
    public Slots with(int slot) {
        check(slot);
        return slot < 64 ? new Slots(low | 1L << slot, high) : new Slots(low, high | 1L << (slot - 64));
    }

    /** Whether {@code slot} is one of these. */
    public boolean has(int slot) {
        check(slot);
        return slot < 64 ? (low >>> slot & 1) != 0 : (high >>> (slot - 64) & 1) != 0;
    }

    /** Whether {@code hash} (unsigned) lies in one of these slots. */
    public boolean contains(long hash) {
        return has(slotOf(hash));
    }

    public Slots union(Slots other) {
        return new Slots(low | other.low, high | other.high);
    }

    public Slots intersection(Slots other) {
        return new Slots(low & other.low, high & other.high);
    }

    public Slots minus(Slots other) {
        return new Slots(low & ~other.low, high & ~other.high);
    }

    public int size() {
        return Long.bitCount(low) + Long.bitCount(high);
    }

    public boolean isEmpty() {
        return low == 0 && high == 0;
    }

    /** The share of the hash space these slots hold, from 0 to 1. */
    public double fraction() {
        return size() / (double) COUNT;
    }

    /** The hash ranges of these slots, adjacent slots merged; empty for no slot. */
    public Optional<ShardRanges> ranges() {
        List<HashRange> ranges = new ArrayList<>();
        int slot = 0;
        while (slot < COUNT) {
            if (!has(slot)) {
                slot++;
                continue;
            }
            int end = slot;
            while (end < COUNT && has(end)) {
                end++;
            }
            long start = (long) slot << SHIFT;
            ranges.add(end == COUNT ? HashRange.toTop(start) : HashRange.of(start, (long) end << SHIFT));
            slot = end;
        }
        return ranges.isEmpty() ? Optional.empty() : Optional.of(new ShardRanges(ranges));
    }

    /** 32 hex digits, slots 127 to 0 (high then low): how a member Lease records the slots it claims. */
    public String hex() {
        return HexFormat.of().toHexDigits(high) + HexFormat.of().toHexDigits(low);
    }

    /**
     * The slots {@link #hex()} wrote.
     *
     * @throws IllegalArgumentException when {@code hex} is not 32 hex digits
     */
    public static Slots fromHex(String hex) {
        if (hex == null || hex.length() != 32) {
            throw new IllegalArgumentException("slots are 32 hex digits, not " + hex);
        }
        try {
            return new Slots(HexFormat.fromHexDigitsToLong(hex, 16, 32), HexFormat.fromHexDigitsToLong(hex, 0, 16));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("slots are 32 hex digits, not " + hex, e);
        }
    }

    /** {@code [0-2,64]}: the slots, runs of adjacent ones joined. */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("[");
        int slot = 0;
        while (slot < COUNT) {
            if (!has(slot)) {
                slot++;
                continue;
            }
            int end = slot;
            while (end + 1 < COUNT && has(end + 1)) {
                end++;
            }
            text.append(text.length() > 1 ? "," : "").append(slot).append(end > slot ? "-" + end : "");
            slot = end + 1;
        }
        return text.append(']').toString();
    }

    private static void check(int slot) {
        if (slot < 0 || slot >= COUNT) {
            throw new IllegalArgumentException("slot " + slot + " is not between 0 and " + (COUNT - 1));
        }
    }
}
