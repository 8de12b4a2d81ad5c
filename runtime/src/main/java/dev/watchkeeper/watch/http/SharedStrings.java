package dev.watchkeeper.watch.http;

import com.google.gson.TypeAdapter;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import com.google.gson.stream.JsonWriter;
import java.io.IOException;

/**
 * Reads strings as Gson does, sharing one instance of each short string among the objects decoded: namespaces,
 * kinds, label and annotation keys and values, data keys repeat in every object of a cache, and keeping one copy
 * of each cuts a cached ConfigMap by about a fifth. The strings seen last are kept in a fixed table indexed by
 * hash, so unique strings (names, uids, resource versions) only take a slot and never grow it. No locking: strings
 * are immutable, and a write lost to a race only costs a later miss.
 */
final class SharedStrings extends TypeAdapter<String> {

    private static final int MAX_LENGTH = 64;
    private static final int SLOTS = 4096;

    private final String[] table = new String[SLOTS];

    @Override
    public String read(JsonReader in) throws IOException {
        JsonToken token = in.peek();
        if (token == JsonToken.NULL) {
            in.nextNull();
            return null;
        }
        String value = token == JsonToken.BOOLEAN ? Boolean.toString(in.nextBoolean()) : in.nextString();
        return value.length() > MAX_LENGTH ? value : shared(value);
    }

    @Override
    public void write(JsonWriter out, String value) throws IOException {
        out.value(value);
    }

    String shared(String value) {
        int hash = value.hashCode();
        int slot = (hash ^ (hash >>> 16)) & (SLOTS - 1);
        String known = table[slot];
        if (value.equals(known)) {
            return known;
        }
        table[slot] = value;
        return value;
    }
}
