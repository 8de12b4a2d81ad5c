package dev.watchkeeper.internal.json;

import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import com.google.gson.stream.MalformedJsonException;
import java.io.IOException;
import java.io.Reader;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A Gson {@link JsonReader} over the UTF-8 bytes of one JSON value: how the objects a
 * {@link dev.watchkeeper.store.CachedObject} keeps are decoded. Gson's own reader needs the bytes turned into a
 * string first, copies that into its character buffer and builds every string longer than the buffer piece by
 * piece; this one finds where a string ends eight bytes at a time and makes the string from its bytes in one copy.
 * It reads strict JSON (RFC 8259) and throws {@link MalformedJsonException} at anything else. Its maps have to be
 * read by {@link StringKeyMaps}: Gson's own map adapter reaches into the private state of Gson's reader.
 *
 * <p>Why one class of this size: it overrides Gson's {@code JsonReader} token by token over UTF-8 bytes, and every
 * token method shares one buffer and one cursor; what is separable already lives in {@code JsonBytes},
 * {@code StringKeyMaps} and {@code Rfc3339Times}. {@code ByteReadersDifferentialTest} holds it to Gson's reader and
 * the client's decoding on generated, cut and mutated input.
 */
public final class ByteJsonReader extends JsonReader {

    private static final Reader UNREADABLE = new Reader() {
        @Override
        public int read(char[] buffer, int offset, int length) {
            throw new AssertionError("a ByteJsonReader reads its bytes, never this reader");
        }

        @Override
        public void close() {
        }
    };

    private static final int EMPTY_DOCUMENT = 0;
    private static final int NONEMPTY_DOCUMENT = 1;
    private static final int EMPTY_ARRAY = 2;
    private static final int NONEMPTY_ARRAY = 3;
    private static final int EMPTY_OBJECT = 4;
    private static final int DANGLING_NAME = 5;
    private static final int NONEMPTY_OBJECT = 6;
    private static final int CLOSED = 7;

    private final byte[] in;
    private final int limit;
    private int at;
    private int[] scopes = new int[16];
    private int depth = 1;
    private JsonToken peeked;
    private byte[] bytes;
    private final SharedStrings strings;

    /** Reads {@code json}; short strings are shared through {@code strings}. */
    public ByteJsonReader(byte[] json, SharedStrings strings) {
        super(UNREADABLE);
        this.in = json;
        this.strings = strings;
        this.limit = json.length;
        scopes[0] = EMPTY_DOCUMENT;
    }

    @Override
    public JsonToken peek() throws IOException {
        if (peeked != null) {
            return peeked;
        }
        int scope = scopes[depth - 1];
        switch (scope) {
            case EMPTY_ARRAY -> {
                scopes[depth - 1] = NONEMPTY_ARRAY;
                if (next() == ']') {
                    return peeked = JsonToken.END_ARRAY;
                }
            }
            case NONEMPTY_ARRAY -> {
                byte b = next();
                if (b == ']') {
                    return peeked = JsonToken.END_ARRAY;
                }
                expectComma(b);
            }
            case EMPTY_OBJECT, NONEMPTY_OBJECT -> {
                scopes[depth - 1] = DANGLING_NAME;
                byte b = next();
                if (b == '}') {
                    return peeked = JsonToken.END_OBJECT;
                }
                if (scope == NONEMPTY_OBJECT) {
                    expectComma(b);
                    b = next();
                }
                if (b != '"') {
                    throw syntax("expected a name");
                }
                return peeked = JsonToken.NAME;
            }
            case DANGLING_NAME -> {
                scopes[depth - 1] = NONEMPTY_OBJECT;
                if (next() != ':') {
                    throw syntax("expected ':'");
                }
                at++;
            }
            case EMPTY_DOCUMENT -> scopes[depth - 1] = NONEMPTY_DOCUMENT;
            case NONEMPTY_DOCUMENT -> {
                skipSpace();
                if (at == limit) {
                    return peeked = JsonToken.END_DOCUMENT;
                }
                throw syntax("more than one value");
            }
            default -> throw new IllegalStateException("JsonReader is closed");
        }
        byte b = next();
        return peeked = switch (b) {
            case '{' -> JsonToken.BEGIN_OBJECT;
            case '[' -> JsonToken.BEGIN_ARRAY;
            case '"' -> JsonToken.STRING;
            case 't', 'f' -> JsonToken.BOOLEAN;
            case 'n' -> JsonToken.NULL;
            case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9' -> JsonToken.NUMBER;
            default -> throw syntax("expected a value");
        };
    }

    @Override
    public void beginObject() throws IOException {
        begin(JsonToken.BEGIN_OBJECT, EMPTY_OBJECT);
    }

    @Override
    public void endObject() throws IOException {
        end(JsonToken.END_OBJECT);
    }

    @Override
    public void beginArray() throws IOException {
        begin(JsonToken.BEGIN_ARRAY, EMPTY_ARRAY);
    }

    @Override
    public void endArray() throws IOException {
        end(JsonToken.END_ARRAY);
    }

    @Override
    public boolean hasNext() throws IOException {
        JsonToken token = peek();
        return token != JsonToken.END_OBJECT && token != JsonToken.END_ARRAY && token != JsonToken.END_DOCUMENT;
    }

    @Override
    public String nextName() throws IOException {
        require(JsonToken.NAME);
        return string();
    }

    @Override
    public String nextString() throws IOException {
        JsonToken token = peek();
        if (token == JsonToken.STRING) {
            peeked = null;
            return string();
        }
        if (token == JsonToken.NUMBER) {
            peeked = null;
            return number();
        }
        throw unexpected(JsonToken.STRING);
    }

    @Override
    public boolean nextBoolean() throws IOException {
        require(JsonToken.BOOLEAN);
        if (literal("true")) {
            return true;
        }
        if (literal("false")) {
            return false;
        }
        throw syntax("expected true or false");
    }

    @Override
    public void nextNull() throws IOException {
        require(JsonToken.NULL);
        if (!literal("null")) {
            throw syntax("expected null");
        }
    }

    @Override
    public double nextDouble() throws IOException {
        double value = Double.parseDouble(numberOrString(JsonToken.NUMBER));
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            throw syntax("JSON forbids NaN and infinities: " + value);
        }
        return value;
    }

    /** A string holding the number is read as the client's tree reads one: {@link Long#parseLong} only. */
    @Override
    public long nextLong() throws IOException {
        boolean quoted = peek() == JsonToken.STRING;
        String text = numberOrString(JsonToken.NUMBER);
        return quoted ? Long.parseLong(text) : integral(text, "a long");
    }

    /** A string holding the number is read as the client's tree reads one: {@link Integer#parseInt} only. */
    @Override
    public int nextInt() throws IOException {
        boolean quoted = peek() == JsonToken.STRING;
        String text = numberOrString(JsonToken.NUMBER);
        if (quoted) {
            return Integer.parseInt(text);
        }
        long value = integral(text, "an int");
        if ((int) value != value) {
            throw new NumberFormatException("Expected an int but was " + text + locationString());
        }
        return (int) value;
    }

    @Override
    public void skipValue() throws IOException {
        int open = 0;
        do {
            switch (peek()) {
                case BEGIN_OBJECT -> {
                    beginObject();
                    open++;
                }
                case BEGIN_ARRAY -> {
                    beginArray();
                    open++;
                }
                case END_OBJECT -> {
                    endObject();
                    open--;
                }
                case END_ARRAY -> {
                    endArray();
                    open--;
                }
                case NAME -> nextName();
                case STRING, NUMBER -> nextString();
                case BOOLEAN -> nextBoolean();
                case NULL -> nextNull();
                case END_DOCUMENT -> {
                    return;
                }
            }
        } while (open > 0);
    }

    @Override
    public void close() {
        peeked = null;
        depth = 1;
        scopes[0] = CLOSED;
    }

    @Override
    public String getPath() {
        return "$" + locationString();
    }

    @Override
    public String getPreviousPath() {
        return getPath();
    }

    @Override
    public String toString() {
        return "ByteJsonReader" + locationString();
    }

    private String locationString() {
        return " at byte " + at;
    }

    private void begin(JsonToken token, int scope) throws IOException {
        require(token);
        at++;
        if (depth > getNestingLimit()) {
            throw syntax("nesting limit " + getNestingLimit() + " reached");
        }
        if (depth == scopes.length) {
            scopes = Arrays.copyOf(scopes, depth * 2);
        }
        scopes[depth++] = scope;
    }

    private void end(JsonToken token) throws IOException {
        require(token);
        at++;
        depth--;
    }

    /** Consumes the peeked token, which must be {@code token}. */
    private void require(JsonToken token) throws IOException {
        if (peek() != token) {
            throw unexpected(token);
        }
        peeked = null;
    }

    private String numberOrString(JsonToken expected) throws IOException {
        JsonToken token = peek();
        if (token != JsonToken.NUMBER && token != JsonToken.STRING) {
            throw unexpected(expected);
        }
        return nextString();
    }

    /** The string whose opening quote the reader stands at; the reader then stands after it. */
    private String string() throws IOException {
        int start = at + 1;
        int end = JsonBytes.plainRun(in, start, limit);
        if (end < limit && in[end] == '"') {
            at = end + 1;
            return strings.share(in, start, end);
        }
        return escapedString(start, end);
    }

    /**
     * A string with escapes (or raw control characters) in it, its UTF-8 bytes written out into {@link #bytes}. An
     * escaped surrogate that is not half of a pair has no UTF-8 form: it throws, and the caller reads the object as
     * a tree.
     */
    private String escapedString(int start, int firstSpecial) throws IOException {
        if (bytes == null || bytes.length < limit - start) {
            bytes = new byte[limit - start]; // enough: no escape is shorter than what it stands for
        }
        int from = start;
        int special = firstSpecial;
        int length = 0;
        while (true) {
            length = appendPlain(from, special, length);
            if (special >= limit) {
                at = limit;
                throw syntax("unterminated string");
            }
            byte b = in[special];
            if (b == '"') {
                at = special + 1;
                return strings.share(new String(bytes, 0, length, StandardCharsets.UTF_8));
            }
            if (b == '\\') {
                at = special;
                length = appendUtf8(escaped(), length);
                from = at;
            } else {
                bytes[length++] = b; // a raw control character, which Gson's default strictness accepts
                from = special + 1;
            }
            special = JsonBytes.plainRun(in, from, limit);
        }
    }

    /** Appends the bytes {@code [from, to)}. */
    private int appendPlain(int from, int to, int length) {
        System.arraycopy(in, from, bytes, length, to - from);
        return length + (to - from);
    }

    private int appendUtf8(int codePoint, int length) {
        int at = length;
        if (codePoint < 0x80) {
            bytes[at++] = (byte) codePoint;
        } else if (codePoint < 0x800) {
            bytes[at++] = (byte) (0xC0 | codePoint >> 6);
            bytes[at++] = (byte) (0x80 | codePoint & 0x3F);
        } else if (codePoint < 0x10000) {
            bytes[at++] = (byte) (0xE0 | codePoint >> 12);
            bytes[at++] = (byte) (0x80 | codePoint >> 6 & 0x3F);
            bytes[at++] = (byte) (0x80 | codePoint & 0x3F);
        } else {
            bytes[at++] = (byte) (0xF0 | codePoint >> 18);
            bytes[at++] = (byte) (0x80 | codePoint >> 12 & 0x3F);
            bytes[at++] = (byte) (0x80 | codePoint >> 6 & 0x3F);
            bytes[at++] = (byte) (0x80 | codePoint & 0x3F);
        }
        return at;
    }

    /** The code point of the escape the reader stands at (its backslash); the reader then stands after it. */
    private int escaped() throws IOException {
        if (at + 1 >= limit) {
            throw syntax("unterminated escape");
        }
        byte kind = in[at + 1];
        at += 2;
        return switch (kind) {
            case '"' -> '"';
            case '\\' -> '\\';
            case '/' -> '/';
            case 'b' -> '\b';
            case 'f' -> '\f';
            case 'n' -> '\n';
            case 'r' -> '\r';
            case 't' -> '\t';
            case 'u' -> unicode();
            default -> throw syntax("invalid escape");
        };
    }

    /** A {@code \\u} escape's code point, joining an escaped surrogate pair. */
    private int unicode() throws IOException {
        char high = hex();
        if (!Character.isSurrogate(high)) {
            return high;
        }
        if (Character.isHighSurrogate(high) && at + 6 <= limit && in[at] == '\\' && in[at + 1] == 'u') {
            at += 2;
            char low = hex();
            if (Character.isLowSurrogate(low)) {
                return Character.toCodePoint(high, low);
            }
        }
        throw syntax("an escaped surrogate that is not half of a pair");
    }

    private char hex() throws IOException {
        if (at + 4 > limit) {
            throw syntax("unterminated escape");
        }
        int value = 0;
        for (int i = 0; i < 4; i++) {
            int digit = Character.digit(in[at + i], 16);
            if (digit < 0) {
                throw syntax("invalid \\u escape");
            }
            value = value << 4 | digit;
        }
        at += 4;
        return (char) value;
    }

    /** The number the reader stands at, as written, checked against JSON's grammar; the reader then stands after it. */
    private String number() throws IOException {
        int start = at;
        int i = at;
        if (i < limit && in[i] == '-') {
            i++;
        }
        if (i < limit && in[i] == '0') {
            i++;
        } else {
            i = digits(i);
        }
        if (i < limit && in[i] == '.') {
            i = digits(i + 1);
        }
        if (i < limit && (in[i] == 'e' || in[i] == 'E')) {
            i++;
            if (i < limit && (in[i] == '+' || in[i] == '-')) {
                i++;
            }
            i = digits(i);
        }
        at = i;
        return new String(in, start, i - start, StandardCharsets.ISO_8859_1);
    }

    /** Where one or more digits from {@code from} end. */
    private int digits(int from) throws IOException {
        int i = from;
        while (i < limit && in[i] >= '0' && in[i] <= '9') {
            i++;
        }
        if (i == from) {
            at = from;
            throw syntax("malformed number");
        }
        return i;
    }

    /**
     * The whole number {@code text} says: plain, or a decimal or exponent with no fraction, taken exactly. Gson's own
     * reader goes through a double, which rounds past 2^53 and saturates past the long range, where the client's
     * models, read from a tree, take the exact value (or truncate it); so anything but an exact long throws, and the
     * object is read as a tree.
     */
    private long integral(String text, String expected) {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException notPlain) {
            try {
                return new BigDecimal(text).longValueExact();
            } catch (ArithmeticException notExact) {
                throw new NumberFormatException("Expected " + expected + " but was " + text + locationString());
            }
        }
    }

    private boolean literal(String word) {
        int end = JsonBytes.literal(in, at, limit, word);
        if (end < 0) {
            return false;
        }
        at = end;
        return true;
    }

    private void expectComma(byte b) throws IOException {
        if (b != ',') {
            throw syntax("expected ','");
        }
        at++;
    }

    /** The next byte that is not white space, not consumed. */
    private byte next() throws IOException {
        skipSpace();
        if (at >= limit) {
            throw syntax("unexpected end of input");
        }
        return in[at];
    }

    private void skipSpace() {
        at = JsonBytes.skipSpace(in, at, limit);
    }

    private IllegalStateException unexpected(JsonToken expected) throws IOException {
        return new IllegalStateException("Expected " + expected + " but was " + peek() + locationString());
    }

    private MalformedJsonException syntax(String problem) {
        return new MalformedJsonException(problem + locationString());
    }
}
