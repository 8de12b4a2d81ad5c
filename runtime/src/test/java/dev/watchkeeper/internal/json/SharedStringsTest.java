package dev.watchkeeper.internal.json;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SharedStringsTest {

    @Test
    void aStringReadFromBytesIsTheirTextAndOneInstanceWhicheverWayItIsRead() {
        Random random = new Random(11);
        String alphabet = "abcXYZ019-./:=é€";
        for (int n = 0; n < 2_000; n++) {
            StringBuilder text = new StringBuilder();
            int length = random.nextInt(70);
            for (int i = 0; i < length; i++) {
                text.append(random.nextInt(8) == 0 ? alphabet.charAt(random.nextInt(alphabet.length()))
                        : alphabet.charAt(random.nextInt(13)));
            }
            String expected = text.toString();
            byte[] bytes = ("  \"" + expected + "\"").getBytes(StandardCharsets.UTF_8);
            SharedStrings strings = new SharedStrings();

            String fromBytes = strings.share(bytes, 3, bytes.length - 1);
            String again = strings.share(bytes.clone(), 3, bytes.length - 1);
            String fromString = strings.share(new String(expected));

            assertThat(fromBytes).isEqualTo(expected);
            if (expected.length() <= 64) {
                assertThat(again).as("shared: %s", expected).isSameAs(fromBytes);
                assertThat(fromString).as("shared: %s", expected).isSameAs(fromBytes);
            } else {
                assertThat(again).as("too long to share: %s", expected).isNotSameAs(fromBytes).isEqualTo(expected);
            }
        }
    }
}
