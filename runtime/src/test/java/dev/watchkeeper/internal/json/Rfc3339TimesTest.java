package dev.watchkeeper.internal.json;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonPrimitive;
import io.kubernetes.client.openapi.JSON;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class Rfc3339TimesTest {

    @ParameterizedTest
    @ValueSource(strings = {"2026-01-01T00:00:00Z", "2026-12-31T23:59:59.5Z", "2024-02-29T10:20:30.123456789Z",
        "2026-06-01T10:20:30.000001+02:00", "2026-06-01T10:20:30-05:30", "2026-06-01T10:20:30+00:00",
        "2026-06-01T10:20:30-00:00", "2026-06-01T10:20:30+0000", "2026-06-01t10:20:30z", "2026-06-01T10:20Z",
        "2026-02-30T00:00:00Z", "2026-01-01T24:00:00Z", "2026-01-01T00:60:00Z", "2026-01-01T00:00:00.Z",
        "2026-01-01T00:00:00.1234567891Z", "2026-01-01T00:00:00", "2026-01-01T00:00:00+25:00",
        "2026-01-01T00:00:00+05:60", "+12026-01-01T00:00:00Z", "2026-01-01T00:00:0xZ", "2026-01-01 00:00:00Z", ""})
    void everyTimeReadsAsTheClientReadsIt(String text) {
        assertThat(read(new Rfc3339Times(), text)).isEqualTo(read(new JSON.OffsetDateTimeTypeAdapter(), text));
    }

    @ParameterizedTest
    @ValueSource(strings = {"2026-01-01T00:00:00Z", "2026-06-01T10:20:30.25+02:00"})
    void theServersFormIsReadWithoutTheClientsAdapter(String text) {
        assertThat(Rfc3339Times.parse(text)).isNotNull();
    }

    /** The time read, or the class of what was thrown. */
    private static Object read(com.google.gson.TypeAdapter<?> adapter, String text) {
        try {
            return adapter.fromJsonTree(new JsonPrimitive(text));
        } catch (RuntimeException e) {
            return e.getClass();
        }
    }
}
