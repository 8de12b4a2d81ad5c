package dev.watchkeeper.internal.shard;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class UidHashTest {

    @Test
    void matchesPublishedFnv1a64Vectors() {
        assertThat(UidHash.of("")).isEqualTo(0xcbf29ce484222325L);
        assertThat(UidHash.of("a")).isEqualTo(0xaf63dc4c8601ec8cL);
        assertThat(UidHash.of("foobar")).isEqualTo(0x85944171f73967e8L);
    }

    @Test
    void agreesWithAnArbitraryPrecisionFnv1aOverUtf8() {
        Random random = new Random(42);
        for (int i = 0; i < 200; i++) {
            String value = i % 2 == 0 ? UUID.nameUUIDFromBytes(new byte[] {(byte) i}).toString() : randomText(random);
            assertThat(UidHash.of(value)).as(value).isEqualTo(reference(value));
        }
    }

    /** FNV-1a 64 written out with BigInteger modulo 2^64, independently of the long arithmetic under test. */
    private static long reference(String value) {
        BigInteger modulus = BigInteger.ONE.shiftLeft(64);
        BigInteger prime = new BigInteger("1099511628211");
        BigInteger hash = new BigInteger("14695981039346656037");
        for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
            hash = hash.xor(BigInteger.valueOf(b & 0xff)).multiply(prime).mod(modulus);
        }
        return hash.longValue();
    }

    private static String randomText(Random random) {
        StringBuilder text = new StringBuilder();
        int length = random.nextInt(20);
        for (int i = 0; i < length; i++) {
            text.appendCodePoint(random.nextBoolean() ? 'a' + random.nextInt(26) : 0xa0 + random.nextInt(0x2000));
        }
        return text.toString();
    }
}
