package dev.watchkeeper.internal.json;

import com.google.gson.TypeAdapter;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import com.google.gson.stream.JsonWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Reads strings as Gson does, sharing one instance of each short string among the objects decoded: namespaces,
 * kinds, label and annotation keys and values, data keys repeat in every object of a cache, and keeping one copy
 * of each cuts a cached ConfigMap by about a fifth. The strings seen last are kept in a fixed table indexed by
 * hash, so unique strings (names, uids, resource versions) only take a slot and never grow it. No locking: strings
 * are immutable, and a write lost to a race only costs a later miss.
 */
public final class SharedStrings extends TypeAdapter<String> {

    private static final int MAX_LENGTH = 64;
    private static final int SLOTS = 4096;

    private final String[] table = new String[SLOTS];
    /**
     * Each slot's string's hash, so that a miss never touches the string; after a race the two may disagree, which
     * is why a match compares the characters too.
     */
    private final int[] hashes = new int[SLOTS];

    @Override
    public String read(JsonReader in) throws IOException {
        JsonToken token = in.peek();
        if (token == JsonToken.NULL) {
            in.nextNull();
            return null;
        }
        String value = token == JsonToken.BOOLEAN ? Boolean.toString(in.nextBoolean()) : in.nextString();
        return share(value);
    }

    /** The shared instance equal to {@code value} if it is short enough to be shared, else {@code value} itself. */
    public String share(String value) {
        return value == null || value.length() > MAX_LENGTH ? value : shared(value);
    }

    @Override
    public void write(JsonWriter out, String value) throws IOException {
        out.value(value);
    }

    /**
     * The string of the UTF-8 bytes {@code [from, to)}, shared like {@link #share}; a short ASCII string that is in
     * the table already is found from its bytes, without making a new string or hashing one.
     */
    public String share(byte[] in, int from, int to) {
        int length = to - from;
        if (length > MAX_LENGTH) {
            return share(new String(in, from, length, StandardCharsets.UTF_8)); // fewer characters than bytes
        }
        // String.hashCode of the characters if they are ASCII, four bytes a step
        int hash = 0;
        int bits = 0;
        int i = from;
        for (; i + 4 <= to; i += 4) {
            byte b0 = in[i];
            byte b1 = in[i + 1];
            byte b2 = in[i + 2];
            byte b3 = in[i + 3];
            bits |= b0 | b1 | b2 | b3;
            hash = 923_521 * hash + 29_791 * b0 + 961 * b1 + 31 * b2 + b3;
        }
        for (; i < to; i++) {
            bits |= in[i];
            hash = 31 * hash + in[i];
        }
        if (bits < 0) {
            return share(new String(in, from, length, StandardCharsets.UTF_8));
        }
        int slot = slot(hash);
        String known = table[slot];
        if (known != null && hashes[slot] == hash && sameCharacters(known, in, from, length)) {
            return known;
        }
        String value = new String(in, from, length, StandardCharsets.ISO_8859_1);
        table[slot] = value;
        hashes[slot] = hash;
        return value;
    }

    private String shared(String value) {
        int hash = value.hashCode();
        int slot = slot(hash);
        String known = table[slot];
        if (value.equals(known)) {
            return known;
        }
        table[slot] = value;
        hashes[slot] = hash;
        return value;
    }

    private static int slot(int hash) {
        return (hash ^ (hash >>> 16)) & (SLOTS - 1);
    }

    private static boolean sameCharacters(String known, byte[] in, int from, int length) {
        if (known.length() != length) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            if (known.charAt(i) != in[from + i]) {
                return false;
            }
        }
        return true;
    }
}
