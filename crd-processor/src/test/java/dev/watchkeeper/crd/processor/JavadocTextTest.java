package dev.watchkeeper.crd.processor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import org.junit.jupiter.api.Test;

class JavadocTextTest {

    @Test
    void linesOfAParagraphJoinAndBlockTagsEndTheDescription() {
        assertThat(JavadocText.description(" How many copies\n run at once.\n\n @see Other\n @since 1\n"))
                .isEqualTo("How many copies run at once.");
    }

    @Test
    void inlineTagsBecomeTheirTextAndHtmlIsDropped() {
        assertThat(JavadocText.description(" The {@code <name>-<i>} prefix; see {@link Spec#replicas the count}"
                + " and {@link #size}.\n <p>\n A <b>second</b> paragraph &lt;here&gt;.\n"))
                .isEqualTo("The <name>-<i> prefix; see the count and size.\n\nA second paragraph <here>.");
    }

    @Test
    void noCommentOrOnlyTagsIsNoDescription() {
        assertThat(JavadocText.description(null)).isEmpty();
        assertThat(JavadocText.description(" @deprecated\n")).isEmpty();
    }

    @Test
    void aRecordsParamTagsDescribeItsComponents() {
        assertThat(JavadocText.parameters(" A spec.\n\n @param replicas how many\n   run at once\n @param size\n"
                + " @param port the {@code http} port\n @see Other\n"))
                .containsExactly(entry("replicas", "how many run at once"), entry("port", "the http port"));
    }
}
