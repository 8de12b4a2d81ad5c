package dev.watchkeeper.internal.shard;

import java.util.stream.Collectors;

/**
 * A parsed {@code shardSelector}: the field hashed and the ranges its hash must fall in. {@link #toString()} is
 * the selector as the server writes it back in a list's {@code metadata.shardInfo.selector}.
 *
 * <pre>{@code
 * ShardSelector.parse("shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000')")
 *         .ranges().contains(UidHash.of(uid));
 * }</pre>
 */
public record ShardSelector(ShardField field, ShardRanges ranges) {

    /**
     * Parses a selector the way kube-apiserver 1.37 does: {@code shardRange(FIELD, 'START', 'END')} calls joined
     * by {@code ||}, one field throughout, each bound {@code 0x} and 16 lowercase hex digits or
     * {@code 0x10000000000000000}, START below END.
     *
     * @throws IllegalArgumentException with the server's message (which it prefixes with "invalid shard selector: ")
     */
    public static ShardSelector parse(String selector) {
        return ShardSelectorParser.parse(selector);
    }

    /** Whether an object whose field has {@code value} is selected. */
    public boolean matches(String value) {
        return ranges.contains(UidHash.of(value));
    }

    @Override
    public String toString() {
        return ranges.ranges().stream()
                .map(range -> "shardRange(" + field.path() + ", '" + range.startHex() + "', '" + range.endHex() + "')")
                .collect(Collectors.joining(" || "));
    }
}
