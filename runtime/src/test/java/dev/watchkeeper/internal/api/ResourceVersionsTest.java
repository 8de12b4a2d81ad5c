package dev.watchkeeper.internal.api;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ResourceVersionsTest {

    @Test
    void wellFormedVersionsCompareAsIntegers() {
        assertThat(ResourceVersions.isAtLeast("10", "9")).as("longer is later").isTrue();
        assertThat(ResourceVersions.isAtLeast("9", "10")).isFalse();
        assertThat(ResourceVersions.isAtLeast("123", "124")).isFalse();
        assertThat(ResourceVersions.isAtLeast("124", "123")).isTrue();
        assertThat(ResourceVersions.isAtLeast("123", "123")).isTrue();
    }

    @Test
    void aVersionThatIsNotWellFormedEqualsOnlyItself() {
        assertThat(ResourceVersions.isAtLeast("010", "9")).as("a leading zero").isFalse();
        assertThat(ResourceVersions.isAtLeast("b7", "a7")).isFalse();
        assertThat(ResourceVersions.isAtLeast("b7", "b7")).isTrue();
        assertThat(ResourceVersions.isAtLeast("", "1")).isFalse();
        assertThat(ResourceVersions.isAtLeast(null, "1")).isFalse();
        assertThat(ResourceVersions.isAtLeast("1", null)).isFalse();
    }
}
