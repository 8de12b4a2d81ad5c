package dev.watchkeeper.internal.text;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PluralTest {

    @Test
    void oneIsSingularAndEveryOtherCountPlural() {
        assertThat(Plural.count(1, "failure")).isEqualTo("1 failure");
        assertThat(Plural.count(0, "watcher")).isEqualTo("0 watchers");
        assertThat(Plural.count(2, "controller")).isEqualTo("2 controllers");
    }
}
