package dev.watchkeeper.internal.shard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ShardSelectorTest {

    private static final String LOW = "'0x0000000000000000'";
    private static final String MID = "'0x8000000000000000'";
    private static final String TOP = "'0x10000000000000000'";

    @Test
    void formatsRangesOfTheUidAsTheServerEchoesThem() {
        ShardRanges ranges = ShardRanges.of(HashRange.share(0, 4), HashRange.share(3, 4));

        assertThat(ranges.selector()).isEqualTo(
                "shardRange(object.metadata.uid, '0x0000000000000000', '0x4000000000000000') || "
                        + "shardRange(object.metadata.uid, '0xc000000000000000', '0x10000000000000000')");
    }

    @Test
    void roundTripsAnySetOfRanges() {
        Random random = new Random(7);
        for (int i = 0; i < 500; i++) {
            List<HashRange> ranges = new ArrayList<>();
            for (int n = 1 + random.nextInt(4); n > 0; n--) {
                ranges.add(randomRange(random));
            }
            ShardRanges original = new ShardRanges(ranges);

            ShardSelector parsed = ShardSelector.parse(original.selector());

            assertThat(parsed).isEqualTo(new ShardSelector(ShardField.UID, original));
            assertThat(parsed.toString()).isEqualTo(original.selector());
        }
    }

    @Test
    void selectsByTheHashOfTheFieldValue() {
        ShardSelector lowerHalf = ShardSelector.parse("shardRange(object.metadata.uid, " + LOW + ", " + MID + ")");
        // FNV-1a 64 of "a" is 0xaf63dc4c8601ec8c, of "foobar" 0x85944171f73967e8, of "" 0xcbf29ce484222325.
        assertThat(lowerHalf.matches("a")).isFalse();
        ShardSelector around = ShardSelector.parse(
                "shardRange(object.metadata.uid, '0xaf63dc4c8601ec8c', '0xaf63dc4c8601ec8d')");
        assertThat(around.matches("a")).isTrue();
        assertThat(around.matches("foobar")).isFalse();
        ShardSelector below = ShardSelector.parse(
                "shardRange(object.metadata.uid, '0x0000000000000000', '0xaf63dc4c8601ec8c')");
        assertThat(below.matches("a")).isFalse();
        assertThat(below.matches("foobar")).isTrue();
    }

    @Test
    void readsTheSelectorAsCelDoesAndEchoesItInTheServersForm() {
        ShardSelector parsed = ShardSelector.parse("  ( shardRange( object . metadata . namespace ,\"0x0000000000000000\","
                + MID + ") )||shardRange(object.metadata.namespace, " + MID + ", " + TOP + ")\n");

        assertThat(parsed.field()).isEqualTo(ShardField.NAMESPACE);
        assertThat(parsed.toString()).isEqualTo("shardRange(object.metadata.namespace, '0x0000000000000000', "
                + "'0x8000000000000000') || shardRange(object.metadata.namespace, '0x8000000000000000', "
                + "'0x10000000000000000')");
        assertThat(ShardSelector.parse("shardRange(object.metadata.uid, " + MID + ", " + LOW.replace("0x0", "0x9")
                + ") || shardRange(object.metadata.uid, " + LOW + ", " + MID + ")").ranges().ranges())
                .extracting(HashRange::startHex).containsExactly("0x8000000000000000", "0x0000000000000000");
    }

    static Stream<Arguments> malformed() {
        String uid = "shardRange(object.metadata.uid, ";
        return Stream.of(
                Arguments.of("  ", "empty shard selector is not allowed; omit the parameter for unfiltered lists"),
                Arguments.of(uid + LOW + ", " + MID + ") || shardRange(object.metadata.namespace, " + MID + ", "
                        + TOP + ")", "all shard ranges must use the same field, got \"object.metadata.uid\" and "
                        + "\"object.metadata.namespace\""),
                Arguments.of(uid + LOW + ", " + MID + ") && " + uid + LOW + ", " + MID + ")",
                        "unsupported function \"_&&_\"; only shardRange() and || are allowed"),
                Arguments.of("hashRange(object.metadata.uid, " + LOW + ", " + MID + ")",
                        "unsupported function \"hashRange\"; only shardRange() and || are allowed"),
                Arguments.of("object.metadata.uid",
                        "unexpected expression kind 7; expected shardRange() call or || operator"),
                Arguments.of(uid + LOW + ")", "shardRange() requires exactly 3 arguments, got 2"),
                Arguments.of("shardRange('uid', " + LOW + ", " + MID + ")", "shardRange() first argument: expected "
                        + "field path (e.g. object.metadata.uid), got expression kind 5"),
                Arguments.of("shardRange(metadata.uid, " + LOW + ", " + MID + ")", "unsupported field path "
                        + "\"metadata.uid\"; supported: object.metadata.uid, object.metadata.namespace"),
                Arguments.of(uid + "start, " + MID + ")",
                        "hexStart must be a string literal (e.g. '0xff'), got expression kind 3"),
                Arguments.of(uid + "0, " + MID + ")", "hexStart must be a string literal, got int64"),
                Arguments.of(uid + LOW + ", 1.5)", "hexEnd must be a string literal, got float64"),
                Arguments.of(uid + LOW + ", true)", "hexEnd must be a string literal, got bool"),
                Arguments.of(uid + LOW + ", null)", "hexEnd must be a string literal, got structpb.NullValue"),
                Arguments.of(uid + LOW + ", '8000000000000000')",
                        "hexEnd must have '0x' prefix, got \"8000000000000000\""),
                Arguments.of(uid + "'0x', " + MID + ")", "hexStart: hex value is required after '0x'"),
                Arguments.of(uid + "'0x000000000000000000', " + MID + ")",
                        "hexStart: hex value too long (18 chars, max 17): \"000000000000000000\""),
                Arguments.of(uid + LOW + ", '0x8000000000000ZZZ')",
                        "hexEnd: invalid hex character \"Z\" in \"0x8000000000000ZZZ\""),
                Arguments.of(uid + LOW + ", '0x800000000000000A')",
                        "hexEnd: invalid hex character \"A\" in \"0x800000000000000A\""),
                Arguments.of(uid + LOW + ", '0x20000000000000000')", "hexEnd: 17-digit hex value must be "
                        + "'0x10000000000000000' (2^64), got \"0x20000000000000000\""),
                Arguments.of(uid + "'0x0', " + MID + ")", "hexStart must be a 0x-prefixed 16-digit hex value, got "
                        + "\"0x0\" (did you mean \"0x0000000000000000\"?)"),
                Arguments.of(uid + MID + ", " + MID + ")",
                        "shard range start 0x8000000000000000 must be less than end 0x8000000000000000"),
                Arguments.of(uid + TOP + ", " + TOP + ")",
                        "shard range start 0x10000000000000000 must be less than end 0x10000000000000000"));
    }

    @ParameterizedTest
    @MethodSource("malformed")
    void refusesAMalformedSelectorWithTheServersMessage(String selector, String message) {
        assertThatThrownBy(() -> ShardSelector.parse(selector)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage(message);
    }

    @Test
    void dropsTheTargetOfAReceiverStyleCallAsCelDoes() {
        assertThat(ShardSelector.parse("object.metadata.namespace.shardRange(object.metadata.uid, " + LOW + ", " + MID
                + ")").toString()).isEqualTo("shardRange(object.metadata.uid, '0x0000000000000000', "
                + "'0x8000000000000000')");
    }

    @Test
    void refusesTextThatIsNotCelAsAParseError() {
        for (String selector : List.of("shardRange(", "shardRange(object.metadata.uid, " + LOW + ", " + MID + ") |",
                "shardRange(object.metadata.uid, '0x0000000000000000, " + MID + ")", "; drop")) {
            assertThatThrownBy(() -> ShardSelector.parse(selector)).as(selector)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("CEL parse error: ");
        }
    }

    private static HashRange randomRange(Random random) {
        long a = random.nextLong();
        long b = random.nextLong();
        if (random.nextInt(5) == 0) {
            return HashRange.toTop(a);
        }
        return a == b ? HashRange.toTop(a)
                : Long.compareUnsigned(a, b) < 0 ? HashRange.of(a, b) : HashRange.of(b, a);
    }
}
