package dev.watchkeeper.internal.shard;

import java.nio.charset.StandardCharsets;

/**
 * The hash kube-apiserver's shard filter places an object by: FNV-1a 64 over the UTF-8 bytes of the field's value
 * (the uid as stored, with its dashes), an unsigned 64-bit number.
 *
 * <pre>{@code
 * ShardRanges.all().contains(UidHash.of(uid));   // true
 * }</pre>
 */
public final class UidHash {

    private static final long OFFSET_BASIS = 0xcbf29ce484222325L;
    private static final long PRIME = 0x100000001b3L;

    private UidHash() {
    }

    /** The hash of {@code value} (a uid, or a namespace name for a namespace shard), to compare unsigned. */
    public static long of(String value) {
        long hash = OFFSET_BASIS;
        for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
            hash ^= b & 0xff;
            hash *= PRIME;
        }
        return hash;
    }
}
