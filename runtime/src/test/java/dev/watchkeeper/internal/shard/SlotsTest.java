package dev.watchkeeper.internal.shard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Random;
import org.junit.jupiter.api.Test;

class SlotsTest {

    @Test
    void aSlotHoldsTheHashesWhoseTopSevenBitsAreItsNumber() {
        assertThat(Slots.slotOf(0)).isZero();
        assertThat(Slots.slotOf(0x01ff_ffff_ffff_ffffL)).isZero();
        assertThat(Slots.slotOf(0x0200_0000_0000_0000L)).isEqualTo(1);
        assertThat(Slots.slotOf(-1L)).isEqualTo(127);
        assertThat(Slots.of(127).contains(0xfe00_0000_0000_0000L)).isTrue();
        assertThat(Slots.of(127).contains(0xfdff_ffff_ffff_ffffL)).isFalse();
    }

    @Test
    void hexWritesSlotsAsALeaseClaimsThemAndReadsThemBack() {
        Slots slots = Slots.of(0, 5, 63, 64, 127);
        assertThat(slots.hex()).hasSize(32).startsWith("8000000000000001").endsWith("8000000000000021");
        assertThat(Slots.fromHex(slots.hex())).isEqualTo(slots);
        assertThat(Slots.fromHex(Slots.all().hex())).isEqualTo(Slots.all());
        assertThat(Slots.fromHex(Slots.none().hex())).isEqualTo(Slots.none());
        assertThatThrownBy(() -> Slots.fromHex("abc")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("32 hex digits");
        assertThatThrownBy(() -> Slots.fromHex("zz" + "0".repeat(30))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void adjacentSlotsMakeOneRangeAndTheLastRunsToTheTopOfTheSpace() {
        ShardRanges ranges = Slots.of(0, 1, 2, 64, 126, 127).ranges().orElseThrow();

        assertThat(ranges.ranges()).containsExactly(HashRange.of(0, 3L << 57), HashRange.of(1L << 63, 65L << 57),
                HashRange.toTop(126L << 57));
        assertThat(Slots.all().ranges().orElseThrow()).isEqualTo(ShardRanges.all());
        assertThat(Slots.none().ranges()).isEmpty();
        assertThat(Slots.of(0, 1, 2, 64, 126, 127)).hasToString("[0-2,64,126-127]");
    }

    @Test
    void theRangesHoldExactlyTheHashesTheSlotsHold() {
        Random random = new Random(42);
        for (int round = 0; round < 200; round++) {
            Slots slots = new Slots(random.nextLong(), random.nextLong());
            ShardRanges ranges = slots.ranges().orElseThrow();
            for (int i = 0; i < 200; i++) {
                long hash = random.nextLong();
                assertThat(ranges.contains(hash)).as("%s holds %x", slots, hash).isEqualTo(slots.contains(hash));
            }
        }
    }

    @Test
    void setOperations() {
        Slots a = Slots.of(1, 2, 70);
        Slots b = Slots.of(2, 3, 70, 100);

        assertThat(a.union(b)).isEqualTo(Slots.of(1, 2, 3, 70, 100));
        assertThat(a.intersection(b)).isEqualTo(Slots.of(2, 70));
        assertThat(a.minus(b)).isEqualTo(Slots.of(1));
        assertThat(Slots.all().size()).isEqualTo(Slots.COUNT);
        assertThat(Slots.of(0, 127).fraction()).isEqualTo(2.0 / 128);
        assertThat(Slots.none().isEmpty()).isTrue();
        assertThatThrownBy(() -> Slots.of(128)).hasMessageContaining("slot 128 is not between 0 and 127");
    }

    @Test
    void eachSlotIsItsOwnBit() {
        for (int slot = 0; slot < Slots.COUNT; slot++) {
            Slots one = Slots.of(slot);
            assertThat(one.size()).isEqualTo(1);
            assertThat(one.isEmpty()).isFalse();
            for (int other = 0; other < Slots.COUNT; other++) {
                assertThat(one.has(other)).as("slot %d has %d", slot, other).isEqualTo(other == slot);
            }
            assertThat(one.contains((long) slot << 57)).isTrue();
        }
        assertThatThrownBy(() -> Slots.all().has(-1)).hasMessageContaining("slot -1 is not between 0 and 127");
        assertThatThrownBy(() -> Slots.none().has(128)).hasMessageContaining("slot 128");
    }
}
