package dev.watchkeeper.internal.shard;

import java.math.BigInteger;

/**
 * A range of the unsigned 64-bit hash space, both ends inclusive so that the top of the space (the server's
 * exclusive bound 2<sup>64</sup>) needs no 65th bit.
 *
 * @param first the lowest hash in the range, unsigned
 * @param last  the highest hash in the range, unsigned, not below {@code first}
 */
public record HashRange(long first, long last) {

    /** The server's exclusive upper bound of the whole space, 2<sup>64</sup>. */
    static final String TOP = "0x10000000000000000";
    private static final BigInteger SPACE = BigInteger.ONE.shiftLeft(64);

    /** @throws IllegalArgumentException when {@code last} is below {@code first} (unsigned) */
    public HashRange {
        if (Long.compareUnsigned(first, last) > 0) {
            throw new IllegalArgumentException("hash range " + hex(first) + ".." + hex(last) + " is empty");
        }
    }

    /**
     * The range {@code startInclusive ≤ h < endExclusive}, as the server's {@code shardRange} writes it.
     *
     * @throws IllegalArgumentException when {@code endExclusive} is not above {@code startInclusive} (unsigned)
     */
    public static HashRange of(long startInclusive, long endExclusive) {
        if (Long.compareUnsigned(startInclusive, endExclusive) >= 0) {
            throw new IllegalArgumentException("shard range start " + hex(startInclusive)
                    + " must be less than end " + hex(endExclusive));
        }
        return new HashRange(startInclusive, endExclusive - 1);
    }

    /** The range from {@code startInclusive} to the top of the space. */
    public static HashRange toTop(long startInclusive) {
        return new HashRange(startInclusive, -1L);
    }

    /**
     * Share {@code index} of {@code count} equal shares of the space, as Kubernetes splits it: each
     * 2<sup>64</sup>/{@code count} wide, the last one also taking the remainder.
     *
     * @throws IllegalArgumentException unless {@code 0 ≤ index < count}
     */
    public static HashRange share(int index, int count) {
        if (count < 1 || index < 0 || index >= count) {
            throw new IllegalArgumentException("share " + index + " of " + count + " does not exist");
        }
        BigInteger span = SPACE.divide(BigInteger.valueOf(count));
        long start = span.multiply(BigInteger.valueOf(index)).longValue();
        return index == count - 1 ? toTop(start)
                : of(start, span.multiply(BigInteger.valueOf(index + 1L)).longValue());
    }

    /** Whether {@code hash} (unsigned) lies in the range. */
    public boolean contains(long hash) {
        return Long.compareUnsigned(hash, first) >= 0 && Long.compareUnsigned(hash, last) <= 0;
    }

    /** The inclusive start as the server writes it: {@code 0x} and 16 lowercase hex digits. */
    public String startHex() {
        return hex(first);
    }

    /** The exclusive end as the server writes it: 16 hex digits, or {@code 0x10000000000000000} at the top. */
    public String endHex() {
        return last == -1L ? TOP : hex(last + 1);
    }

    static String hex(long value) {
        String digits = Long.toHexString(value);
        return "0x" + "0".repeat(16 - digits.length()) + digits;
    }

    @Override
    public String toString() {
        return "[" + startHex() + ", " + endHex() + ")";
    }
}
