package dev.watchkeeper.internal.json;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * What the two byte-level JSON readers (the watchers' {@code ObjectScanner} and {@link ByteJsonReader}) share:
 * finding the end of the plain part of a string eight bytes at a time (the bytes that need a closer look are a quote,
 * a backslash and a control character; everything else, multi-byte characters included, is copied as it is), white
 * space, literals.
 */
public final class JsonBytes {

    private static final VarHandle WORDS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;
    private static final long QUOTES = 0x2222222222222222L;
    private static final long BACKSLASHES = 0x5C5C5C5C5C5C5C5CL;
    private static final long SPACES = 0x2020202020202020L;

    private JsonBytes() {
    }

    /**
     * The index of the first quote, backslash or control character (below 0x20) at or after {@code from}, or
     * {@code limit} if there is none before it.
     */
    public static int plainRun(byte[] in, int from, int limit) {
        int i = from;
        while (i + Long.BYTES <= limit) {
            long word = (long) WORDS.get(in, i);
            long special = special(word);
            if (special != 0) {
                // the lowest flag is exact (a borrow only ever marks bytes above a special one)
                return i + (Long.numberOfTrailingZeros(special) >>> 3);
            }
            i += Long.BYTES;
        }
        while (i < limit) {
            byte b = in[i];
            if (b == '"' || b == '\\' || (b & 0xff) < 0x20) {
                return i;
            }
            i++;
        }
        return limit;
    }

    /** Where the white space (as JSON defines it) from {@code from} ends. */
    public static int skipSpace(byte[] in, int from, int limit) {
        int i = from;
        while (i < limit) {
            byte b = in[i];
            if (b != ' ' && b != '\n' && b != '\r' && b != '\t') {
                return i;
            }
            i++;
        }
        return limit;
    }

    /** Where the ASCII {@code word} that starts at {@code at} ends, or -1 if it does not start there. */
    public static int literal(byte[] in, int at, int limit, String word) {
        if (at + word.length() > limit) {
            return -1;
        }
        for (int i = 0; i < word.length(); i++) {
            if (in[at + i] != word.charAt(i)) {
                return -1;
            }
        }
        return at + word.length();
    }

    /** The high bit of each byte of {@code word} that is a quote, a backslash or below 0x20 (see {@link #plainRun}). */
    private static long special(long word) {
        long quotes = word ^ QUOTES;
        long backslashes = word ^ BACKSLASHES;
        return (((quotes - ONES) & ~quotes) | ((backslashes - ONES) & ~backslashes) | ((word - SPACES) & ~word)) & HIGHS;
    }
}
