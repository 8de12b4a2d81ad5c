package dev.watchkeeper.internal.shard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class HashRangeTest {

    @Test
    void holdsItsStartAndNotItsEnd() {
        HashRange range = HashRange.of(0x10L, 0x20L);

        assertThat(range.contains(0x10L)).isTrue();
        assertThat(range.contains(0x1fL)).isTrue();
        assertThat(range.contains(0x20L)).isFalse();
        assertThat(range.contains(0x0fL)).isFalse();
        assertThat(range.startHex()).isEqualTo("0x0000000000000010");
        assertThat(range.endHex()).isEqualTo("0x0000000000000020");
    }

    @Test
    void comparesHashesUnsigned() {
        HashRange upperHalf = HashRange.toTop(0x8000000000000000L);

        assertThat(upperHalf.contains(-1L)).isTrue();
        assertThat(upperHalf.contains(0x8000000000000000L)).isTrue();
        assertThat(upperHalf.contains(0x7fffffffffffffffL)).isFalse();
        assertThat(upperHalf.endHex()).isEqualTo("0x10000000000000000");
        assertThat(HashRange.of(1, 0xffffffffffffffffL).contains(0xfffffffffffffffeL)).isTrue();
        assertThat(HashRange.of(1, 0xffffffffffffffffL).endHex()).isEqualTo("0xffffffffffffffff");
    }

    @Test
    void refusesAnEndNotAboveTheStart() {
        assertThatThrownBy(() -> HashRange.of(5, 5)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("shard range start 0x0000000000000005 must be less than end 0x0000000000000005");
        assertThatThrownBy(() -> HashRange.of(0x8000000000000000L, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new HashRange(2, 1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void sharesSplitTheSpaceAsKubernetesDoes() {
        assertThat(HashRange.share(0, 1)).isEqualTo(HashRange.toTop(0));
        assertThat(HashRange.share(1, 2).startHex()).isEqualTo("0x8000000000000000");
        assertThat(HashRange.share(0, 3).endHex()).isEqualTo("0x5555555555555555");
        assertThat(HashRange.share(2, 3).startHex()).isEqualTo("0xaaaaaaaaaaaaaaaa");
        assertThat(HashRange.share(3, 4).startHex()).isEqualTo("0xc000000000000000");
        for (int count = 1; count <= 17; count++) {
            assertThat(HashRange.share(0, count).first()).isZero();
            assertThat(HashRange.share(count - 1, count).last()).isEqualTo(-1L);
            for (int i = 0; i + 1 < count; i++) {
                assertThat(HashRange.share(i, count).last() + 1).isEqualTo(HashRange.share(i + 1, count).first());
            }
        }
        assertThatThrownBy(() -> HashRange.share(3, 3)).isInstanceOf(IllegalArgumentException.class);
    }
}
