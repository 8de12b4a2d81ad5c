package dev.watchkeeper.internal.json;

import com.google.gson.JsonPrimitive;
import com.google.gson.TypeAdapter;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import com.google.gson.stream.JsonWriter;
import io.kubernetes.client.openapi.JSON;
import java.io.IOException;
import java.time.DateTimeException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/**
 * Reads times as the client's own adapter does, but the form the API server writes ({@code 2026-01-01T10:20:30Z},
 * RFC 3339 with an optional fraction and a {@code Z} or {@code ±hh:mm} offset) without a {@code DateTimeFormatter},
 * which took a tenth of a ConfigMap's decoding. Any other text, and any invalid date or time, goes to the client's
 * adapter, which reads it or fails in its own words; writing is the client's Gson's.
 */
final class Rfc3339Times extends TypeAdapter<OffsetDateTime> {

    private static final int[] NANOS_PER_DIGIT = {100_000_000, 10_000_000, 1_000_000, 100_000, 10_000, 1_000, 100, 10, 1};

    private final JSON.OffsetDateTimeTypeAdapter client = new JSON.OffsetDateTimeTypeAdapter();

    @Override
    public OffsetDateTime read(JsonReader in) throws IOException {
        if (in.peek() == JsonToken.NULL) {
            in.nextNull();
            return null;
        }
        String text = in.nextString();
        OffsetDateTime time = parse(text);
        return time != null ? time : client.fromJsonTree(new JsonPrimitive(text));
    }

    /** As the client's Gson writes times: in microseconds, which is what the API server reads in a MicroTime. */
    @Override
    public void write(JsonWriter out, OffsetDateTime value) throws IOException {
        JSON.getGson().getAdapter(OffsetDateTime.class).write(out, value);
    }

    /** The time {@code text} says in the API server's form, or {@code null} if it is in another form or invalid. */
    static OffsetDateTime parse(String text) {
        int length = text.length();
        if (length < 20 || text.charAt(4) != '-' || text.charAt(7) != '-' || text.charAt(10) != 'T'
                || text.charAt(13) != ':' || text.charAt(16) != ':') {
            return null;
        }
        int year = digits(text, 0, 4);
        int month = digits(text, 5, 2);
        int day = digits(text, 8, 2);
        int hour = digits(text, 11, 2);
        int minute = digits(text, 14, 2);
        int second = digits(text, 17, 2);
        if ((year | month | day | hour | minute | second) < 0) {
            return null;
        }
        int at = 19;
        int nanos = 0;
        if (text.charAt(at) == '.') {
            int fraction = at + 1;
            while (at + 1 < length && text.charAt(at + 1) >= '0' && text.charAt(at + 1) <= '9') {
                at++;
            }
            int count = at - fraction + 1;
            if (count < 1 || count > 9) {
                return null;
            }
            nanos = digits(text, fraction, count) * NANOS_PER_DIGIT[count - 1];
            at++;
        }
        ZoneOffset offset = offset(text, at);
        if (offset == null) {
            return null;
        }
        try {
            return OffsetDateTime.of(year, month, day, hour, minute, second, nanos, offset);
        } catch (DateTimeException invalid) {
            return null; // the client's adapter says what is wrong
        }
    }

    private static ZoneOffset offset(String text, int at) {
        int left = text.length() - at;
        if (left == 1 && text.charAt(at) == 'Z') {
            return ZoneOffset.UTC;
        }
        char sign = left == 6 ? text.charAt(at) : 0;
        if ((sign != '+' && sign != '-') || text.charAt(at + 3) != ':') {
            return null;
        }
        int hours = digits(text, at + 1, 2);
        int minutes = digits(text, at + 4, 2);
        if ((hours | minutes) < 0) {
            return null;
        }
        try {
            return sign == '+' ? ZoneOffset.ofHoursMinutes(hours, minutes) : ZoneOffset.ofHoursMinutes(-hours, -minutes);
        } catch (DateTimeException invalid) {
            return null;
        }
    }

    /** The decimal number of the ASCII digits {@code [from, from + count)}, or -1 if one is not a digit. */
    private static int digits(String text, int from, int count) {
        int value = 0;
        for (int i = from; i < from + count; i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }
}
