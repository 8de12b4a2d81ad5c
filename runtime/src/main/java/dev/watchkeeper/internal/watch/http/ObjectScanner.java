package dev.watchkeeper.internal.watch.http;

import dev.watchkeeper.internal.json.JsonBytes;
import dev.watchkeeper.internal.json.SharedStrings;
import dev.watchkeeper.internal.watch.WireEvent;
import dev.watchkeeper.store.CachedObject;
import dev.watchkeeper.store.ObjectKey;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads an object's metadata straight from its JSON bytes in one pass, without building a model or a tree, and
 * keeps the object's bytes (without {@code metadata.managedFields} when asked) for a {@link CachedObject} to decode
 * on demand. It reads strict JSON only: anything it does not read exactly (a syntax error, a key written with
 * escapes, a repeated key it needs, a field of an unexpected type, an object without {@code metadata.name}) makes it
 * give up with {@code null}, and the caller reads the JSON as a tree, which reports what is wrong as before.
 *
 * <p>Why one class of this size: it is a hand-written scanner over untrusted bytes, on the watcher's hottest path.
 * Its states (event line, list page, object, metadata, owner references) share one cursor and one set of byte-level
 * helpers, and splitting them across classes would put a call and a copy of the cursor on every token.
 * {@code ByteReadersDifferentialTest} holds it to the client's own decoding on generated, cut and mutated input.
 */
final class ObjectScanner<T> {

    /** A list page read from its body: its objects, resourceVersion, continue token and applied shard selector. */
    record ScannedList<T>(List<CachedObject<T>> items, String resourceVersion, String continueToken,
            String shardSelector) {
    }

    /** A watch event's type and object, read from its line. */
    record ScannedChange<T>(WireEvent.ChangeType type, CachedObject<T> object) {
    }

    private static final byte[] TYPE = ascii("type");
    private static final byte[] OBJECT = ascii("object");
    private static final byte[] METADATA = ascii("metadata");
    private static final byte[] ITEMS = ascii("items");
    private static final byte[] CONTINUE = ascii("continue");
    private static final byte[] SHARD_INFO = ascii("shardInfo");
    private static final byte[] SELECTOR = ascii("selector");
    private static final byte[] NAME = ascii("name");
    private static final byte[] NAMESPACE = ascii("namespace");
    private static final byte[] UID = ascii("uid");
    private static final byte[] RESOURCE_VERSION = ascii("resourceVersion");
    private static final byte[] GENERATION = ascii("generation");
    private static final byte[] LABELS = ascii("labels");
    private static final byte[] OWNER_REFERENCES = ascii("ownerReferences");
    private static final byte[] DELETION_TIMESTAMP = ascii("deletionTimestamp");
    private static final byte[] FINALIZERS = ascii("finalizers");
    private static final byte[] MANAGED_FIELDS = ascii("managedFields");
    private static final byte[] API_VERSION = ascii("apiVersion");
    private static final byte[] KIND = ascii("kind");
    private static final byte[] CONTROLLER = ascii("controller");
    private static final byte[] BLOCK_OWNER_DELETION = ascii("blockOwnerDeletion");

    /** Thrown to give up on input the scanner does not read; never escapes this class. */
    private static final class NotScanned extends Exception {
        static final NotScanned INSTANCE = new NotScanned();

        private NotScanned() {
            super(null, null, false, false);
        }
    }

    /**
     * A decoder whose problems say where the object came from, so that whoever meets the problem first (a reader of
     * the store or the watcher's listeners) reports it in the same words.
     */
    private record Described<T>(CachedObject.Decoder<T> decoder, String prefix) implements CachedObject.Decoder<T> {
        @Override
        public T decode(byte[] json) throws Exception {
            return decoder.decode(json);
        }

        @Override
        public String problem(byte[] json, Exception failure) {
            return prefix + decoder.problem(json, failure);
        }
    }

    private static final int LABEL_SLOTS = 1024;
    @SuppressWarnings("unchecked")
    private static final Map<String, String>[] LABELS_SEEN = new Map[LABEL_SLOTS];

    private final CachedObject.Decoder<T> listItems;
    private final Map<WireEvent.ChangeType, CachedObject.Decoder<T>> changes = new EnumMap<>(WireEvent.ChangeType.class);
    private final boolean stripManagedFields;
    private final SharedStrings strings;

    // the metadata of the object being scanned
    private byte[] in;
    private int at;
    private int limit;
    private String namespace;
    private String name;
    private String uid;
    private String resourceVersion;
    private Long generation;
    private Map<String, String> labels;
    private List<V1OwnerReference> ownerReferences;
    private String deletionTimestamp;
    private List<String> finalizers;
    private int cutFrom;
    private int cutTo;
    private String[] pairs = new String[16];

    /** @param display the resource as messages name it ({@code v1/configmaps}) */
    ObjectScanner(CachedObject.Decoder<T> decoder, String display, boolean stripManagedFields, SharedStrings strings) {
        this.listItems = new Described<>(decoder, "an object that cannot be decoded: ");
        for (WireEvent.ChangeType type : WireEvent.ChangeType.values()) {
            changes.put(type, new Described<>(decoder, "an event of " + display + " that cannot be decoded: " + type
                    + " of "));
        }
        this.stripManagedFields = stripManagedFields;
        this.strings = strings;
    }

    /**
     * A watch line {@code {"type":"ADDED|MODIFIED|DELETED","object":{…}}} (keys in any order), or {@code null} for
     * any other line: bookmarks, errors and anything odd are read as trees.
     */
    ScannedChange<T> change(byte[] line, int length) {
        in = line;
        at = 0;
        limit = length;
        try {
            WireEvent.ChangeType[] type = new WireEvent.ChangeType[1];
            int[] object = {-1, -1};
            skipSpace();
            members((keyStart, keyEnd, memberStart, first) -> {
                if (is(keyStart, keyEnd, TYPE)) {
                    requireFirst(type[0] == null);
                    type[0] = changeType();
                } else if (is(keyStart, keyEnd, OBJECT)) {
                    requireFirst(object[0] < 0);
                    object[0] = at;
                    skipValue();
                    object[1] = at;
                } else {
                    skipValue();
                }
            });
            skipSpace();
            if (at != limit || type[0] == null || object[0] < 0) {
                return null;
            }
            CachedObject<T> scanned = object(object[0], object[1], changes.get(type[0]));
            return scanned == null ? null : new ScannedChange<>(type[0], scanned);
        } catch (NotScanned | ArrayIndexOutOfBoundsException giveUp) {
            return null;
        } finally {
            in = null;
        }
    }

    /**
     * A list body {@code {"metadata":{…},"items":[…]}} (keys in any order), or {@code null} if the scanner does not
     * read all of it, every item included: the caller then reads the body as before, item by item.
     */
    ScannedList<T> list(byte[] body) {
        in = body;
        at = 0;
        limit = body.length;
        try {
            String[][] listMetadata = new String[1][];
            List<List<CachedObject<T>>> items = new ArrayList<>(1);
            skipSpace();
            members((keyStart, keyEnd, memberStart, first) -> {
                if (is(keyStart, keyEnd, METADATA)) {
                    requireFirst(listMetadata[0] == null);
                    listMetadata[0] = listMetadata();
                } else if (is(keyStart, keyEnd, ITEMS)) {
                    requireFirst(items.isEmpty());
                    items.add(items());
                } else {
                    skipValue();
                }
            });
            skipSpace();
            if (at != limit || items.isEmpty()) {
                return null;
            }
            String[] found = listMetadata[0] == null ? new String[3] : listMetadata[0];
            return new ScannedList<>(items.get(0), found[0], found[1], found[2]);
        } catch (NotScanned | ArrayIndexOutOfBoundsException giveUp) {
            return null;
        } finally {
            in = null;
        }
    }

    /** {@code [resourceVersion, continue, shardInfo.selector]} of a list's metadata. */
    private String[] listMetadata() throws NotScanned {
        String[] found = new String[3];
        if (literalNull()) {
            return found;
        }
        members((keyStart, keyEnd, memberStart, first) -> {
            if (is(keyStart, keyEnd, RESOURCE_VERSION)) {
                found[0] = stringOrNull();
            } else if (is(keyStart, keyEnd, CONTINUE)) {
                found[1] = stringOrNull();
            } else if (is(keyStart, keyEnd, SHARD_INFO)) {
                found[2] = shardInfoSelector();
            } else {
                skipValue();
            }
        });
        return found;
    }

    /** {@code selector} of a list's {@code metadata.shardInfo}; a selector with escapes gives up (it has none). */
    private String shardInfoSelector() throws NotScanned {
        String[] selector = new String[1];
        if (literalNull()) {
            return null;
        }
        members((keyStart, keyEnd, memberStart, first) -> {
            if (is(keyStart, keyEnd, SELECTOR)) {
                selector[0] = stringOrNull();
            } else {
                skipValue();
            }
        });
        return selector[0];
    }

    private List<CachedObject<T>> items() throws NotScanned {
        if (literalNull()) {
            return List.of();
        }
        List<CachedObject<T>> items = new ArrayList<>();
        elements(() -> {
            int start = at;
            skipValue();
            int end = at;
            CachedObject<T> item = object(start, end, listItems);
            if (item == null) {
                throw NotScanned.INSTANCE;
            }
            items.add(item);
            at = end;
        });
        return items;
    }

    private CachedObject<T> object(int start, int end, CachedObject.Decoder<T> decoder) {
        namespace = null;
        name = null;
        uid = null;
        resourceVersion = null;
        generation = null;
        labels = null;
        ownerReferences = null;
        deletionTimestamp = null;
        finalizers = null;
        cutFrom = -1;
        cutTo = -1;
        int savedLimit = limit;
        limit = end;
        at = start;
        try {
            boolean[] metadataSeen = new boolean[1];
            members((keyStart, keyEnd, memberStart, first) -> {
                if (is(keyStart, keyEnd, METADATA)) {
                    requireFirst(!metadataSeen[0]);
                    metadataSeen[0] = true;
                    metadata();
                } else {
                    skipValue();
                }
            });
            skipSpace();
            if (at != end || name == null) {
                return null;
            }
            return new CachedObject<>(new ObjectKey(namespace, name), uid, resourceVersion, generation, labels,
                    ownerReferences, deletionTimestamp, finalizers, kept(start, end), decoder);
        } catch (NotScanned | ArrayIndexOutOfBoundsException | NumberFormatException giveUp) {
            return null;
        } finally {
            limit = savedLimit;
        }
    }

    private byte[] kept(int start, int end) {
        if (cutFrom < 0) {
            return Arrays.copyOfRange(in, start, end);
        }
        byte[] kept = new byte[end - start - (cutTo - cutFrom)];
        System.arraycopy(in, start, kept, 0, cutFrom - start);
        System.arraycopy(in, cutTo, kept, cutFrom - start, end - cutTo);
        return kept;
    }

    private void metadata() throws NotScanned {
        members((keyStart, keyEnd, memberStart, first) -> {
            if (is(keyStart, keyEnd, NAME)) {
                name = stringOrNull();
            } else if (is(keyStart, keyEnd, NAMESPACE)) {
                namespace = sharedStringOrNull();
            } else if (is(keyStart, keyEnd, UID)) {
                uid = stringOrNull();
            } else if (is(keyStart, keyEnd, RESOURCE_VERSION)) {
                resourceVersion = stringOrNull();
            } else if (is(keyStart, keyEnd, GENERATION)) {
                generation = longOrNull();
            } else if (is(keyStart, keyEnd, LABELS)) {
                labels = stringMap();
            } else if (is(keyStart, keyEnd, OWNER_REFERENCES)) {
                ownerReferences = ownerReferences();
            } else if (is(keyStart, keyEnd, DELETION_TIMESTAMP)) {
                deletionTimestamp = stringOrNull();
            } else if (is(keyStart, keyEnd, FINALIZERS)) {
                finalizers = stringList();
            } else if (stripManagedFields && is(keyStart, keyEnd, MANAGED_FIELDS)) {
                requireFirst(cutFrom < 0);
                skipValue();
                // cut the member with the comma before it, or after it when it is the first member
                cutFrom = first ? keyStart : memberStart;
                skipSpace();
                cutTo = first && peek() == ',' ? at + 1 : at;
            } else {
                skipValue();
            }
        });
    }

    private List<V1OwnerReference> ownerReferences() throws NotScanned {
        if (literalNull()) {
            return null;
        }
        List<V1OwnerReference> references = new ArrayList<>(1);
        elements(() -> references.add(ownerReference()));
        return List.copyOf(references);
    }

    private V1OwnerReference ownerReference() throws NotScanned {
        V1OwnerReference reference = new V1OwnerReference();
        members((keyStart, keyEnd, memberStart, first) -> {
            if (is(keyStart, keyEnd, API_VERSION)) {
                reference.setApiVersion(sharedStringOrNull());
            } else if (is(keyStart, keyEnd, KIND)) {
                reference.setKind(sharedStringOrNull());
            } else if (is(keyStart, keyEnd, NAME)) {
                reference.setName(stringOrNull());
            } else if (is(keyStart, keyEnd, UID)) {
                reference.setUid(stringOrNull());
            } else if (is(keyStart, keyEnd, CONTROLLER)) {
                reference.setController(booleanOrNull());
            } else if (is(keyStart, keyEnd, BLOCK_OWNER_DELETION)) {
                reference.setBlockOwnerDeletion(booleanOrNull());
            } else {
                skipValue();
            }
        });
        return reference;
    }

    private Map<String, String> stringMap() throws NotScanned {
        if (literalNull()) {
            return null;
        }
        int[] count = new int[1];
        members((keyStart, keyEnd, memberStart, first) -> {
            if (count[0] == pairs.length) {
                pairs = Arrays.copyOf(pairs, count[0] * 2);
            }
            pairs[count[0]++] = strings.share(in, keyStart + 1, keyEnd);
            pairs[count[0]++] = sharedString();
        });
        return count[0] == 0 ? Map.of() : sharedLabels(count[0]);
    }

    /**
     * The labels in {@code pairs[0, count)} as an immutable map, the same instance as an earlier object's when they
     * are equal: the objects of one app carry the same labels, and a cache keeps one copy of them. Like
     * {@link SharedStrings}, a fixed table of the maps seen last, indexed by hash, no locking.
     */
    private Map<String, String> sharedLabels(int count) {
        int hash = 0;
        for (int i = 0; i < count; i += 2) {
            hash += pairs[i].hashCode() ^ pairs[i + 1].hashCode();
        }
        int slot = (hash ^ (hash >>> 16)) & (LABEL_SLOTS - 1);
        Map<String, String> known = LABELS_SEEN[slot];
        if (known != null && known.size() == count / 2 && sameLabels(known, count)) {
            return known;
        }
        Map<String, String> labels = immutableMap(pairs, count);
        if (labels.size() == count / 2) { // a map with a repeated key is not shared
            LABELS_SEEN[slot] = labels;
        }
        return labels;
    }

    private boolean sameLabels(Map<String, String> known, int count) {
        for (int i = 0; i < count; i += 2) {
            if (!pairs[i + 1].equals(known.get(pairs[i]))) {
                return false;
            }
        }
        return true;
    }

    /** An immutable map of {@code count / 2} key-value pairs; a repeated key keeps its last value, as Gson does. */
    private static Map<String, String> immutableMap(String[] pairs, int count) {
        try {
            return switch (count) {
                case 2 -> Map.of(pairs[0], pairs[1]);
                case 4 -> Map.of(pairs[0], pairs[1], pairs[2], pairs[3]);
                case 6 -> Map.of(pairs[0], pairs[1], pairs[2], pairs[3], pairs[4], pairs[5]);
                case 8 -> Map.of(pairs[0], pairs[1], pairs[2], pairs[3], pairs[4], pairs[5], pairs[6], pairs[7]);
                default -> throw new IllegalArgumentException("more pairs than Map.of takes");
            };
        } catch (IllegalArgumentException repeatedOrMany) {
            Map<String, String> map = new HashMap<>(count);
            for (int i = 0; i < count; i += 2) {
                map.put(pairs[i], pairs[i + 1]);
            }
            return Map.copyOf(map);
        }
    }

    private List<String> stringList() throws NotScanned {
        if (literalNull()) {
            return null;
        }
        List<String> list = new ArrayList<>(2);
        elements(() -> list.add(sharedString()));
        return List.copyOf(list);
    }

    private WireEvent.ChangeType changeType() throws NotScanned {
        skipSpace();
        String type = string();
        return switch (type) {
            case "ADDED" -> WireEvent.ChangeType.ADDED;
            case "MODIFIED" -> WireEvent.ChangeType.MODIFIED;
            case "DELETED" -> WireEvent.ChangeType.DELETED;
            default -> throw NotScanned.INSTANCE;
        };
    }

    /** Reads one member's value, the reader standing after its key and colon. */
    private interface Member {
        /**
         * @param memberStart where the member begins, with the comma before it unless it is the {@code first}
         */
        void read(int keyStart, int keyEnd, int memberStart, boolean first) throws NotScanned;
    }

    /** Reads an object's members in order, handing each to {@code member}; the reader stands after the object. */
    private void members(Member member) throws NotScanned {
        expect('{');
        skipSpace();
        if (peek() == '}') {
            at++;
            return;
        }
        boolean first = true;
        int memberStart = at;
        do {
            skipSpace();
            int keyStart = at;
            int keyEnd = key();
            member.read(keyStart, keyEnd, memberStart, first);
            skipSpace();
            first = false;
            memberStart = at;
        } while (nextMember());
        expect('}');
    }

    /** Reads one element of an array, the reader standing at it. */
    private interface Element {
        void read() throws NotScanned;
    }

    /** Reads an array's elements in order, handing each to {@code element}; the reader stands after the array. */
    private void elements(Element element) throws NotScanned {
        expect('[');
        skipSpace();
        if (peek() == ']') {
            at++;
            return;
        }
        do {
            skipSpace();
            element.read();
            skipSpace();
        } while (nextMember());
        expect(']');
    }

    /** A key the scanner needs twice in one object: give up, the tree reader keeps the last as Gson does. */
    private static void requireFirst(boolean first) throws NotScanned {
        if (!first) {
            throw NotScanned.INSTANCE;
        }
    }

    /** After a member: true at a comma (consumed), false before the closing bracket. */
    private boolean nextMember() throws NotScanned {
        byte b = peek();
        if (b == ',') {
            at++;
            return true;
        }
        if (b == '}' || b == ']') {
            return false;
        }
        throw NotScanned.INSTANCE;
    }

    /** A member's key and its colon; returns the index of the key's closing quote. Keys with escapes give up. */
    private int key() throws NotScanned {
        if (peek() != '"') {
            throw NotScanned.INSTANCE;
        }
        int end = JsonBytes.plainRun(in, at + 1, limit);
        if (end >= limit || in[end] != '"') {
            throw NotScanned.INSTANCE;
        }
        at = end + 1;
        skipSpace();
        expect(':');
        skipSpace();
        return end;
    }

    private boolean is(int keyStart, int keyEnd, byte[] name) {
        return keyEnd - keyStart - 1 == name.length
                && Arrays.equals(in, keyStart + 1, keyEnd, name, 0, name.length);
    }

    private String stringOrNull() throws NotScanned {
        return literalNull() ? null : string();
    }

    private String string() throws NotScanned {
        int start = at + 1;
        int end = plainString();
        return new String(in, start, end - start, StandardCharsets.UTF_8);
    }

    private String sharedStringOrNull() throws NotScanned {
        return literalNull() ? null : sharedString();
    }

    /** A string that repeats between objects: one instance is shared ({@link SharedStrings}). */
    private String sharedString() throws NotScanned {
        int start = at + 1;
        int end = plainString();
        return strings.share(in, start, end);
    }

    /** Reads a string without escapes; returns the index of its closing quote, the reader standing after it. */
    private int plainString() throws NotScanned {
        if (peek() != '"') {
            throw NotScanned.INSTANCE;
        }
        int end = JsonBytes.plainRun(in, at + 1, limit);
        if (end >= limit || in[end] != '"') {
            throw NotScanned.INSTANCE;
        }
        at = end + 1;
        return end;
    }

    private Long longOrNull() throws NotScanned {
        if (literalNull()) {
            return null;
        }
        int start = at;
        skipNumber();
        return Long.valueOf(new String(in, start, at - start, StandardCharsets.US_ASCII));
    }

    private Boolean booleanOrNull() throws NotScanned {
        if (literalNull()) {
            return null;
        }
        if (literal("true")) {
            return Boolean.TRUE;
        }
        if (literal("false")) {
            return Boolean.FALSE;
        }
        throw NotScanned.INSTANCE;
    }

    private boolean literalNull() {
        return literal("null");
    }

    private boolean literal(String word) {
        int end = JsonBytes.literal(in, at, limit, word);
        if (end < 0) {
            return false;
        }
        at = end;
        return true;
    }

    /** Skips one strict JSON value of any kind. */
    private void skipValue() throws NotScanned {
        byte b = peek();
        switch (b) {
            case '"' -> skipString();
            case '{', '[' -> skipContainer();
            case 't' -> require(literal("true"));
            case 'f' -> require(literal("false"));
            case 'n' -> require(literal("null"));
            default -> skipNumber();
        }
    }

    /** Skips an object or array, checking its structure as it goes. */
    private void skipContainer() throws NotScanned {
        boolean object = in[at] == '{';
        at++;
        skipSpace();
        char close = object ? '}' : ']';
        if (peek() == close) {
            at++;
            return;
        }
        do {
            skipSpace();
            if (object) {
                skipString();
                skipSpace();
                expect(':');
                skipSpace();
            }
            skipValue();
            skipSpace();
        } while (nextMember());
        expect(close);
    }

    private void skipString() throws NotScanned {
        if (peek() != '"') {
            throw NotScanned.INSTANCE;
        }
        int i = at + 1;
        while (true) {
            i = JsonBytes.plainRun(in, i, limit);
            if (i >= limit) {
                throw NotScanned.INSTANCE;
            }
            byte b = in[i];
            if (b == '"') {
                break;
            }
            if (b == '\\') {
                i++;
                if (i >= limit) {
                    throw NotScanned.INSTANCE;
                }
                byte escaped = in[i];
                if (escaped == 'u') {
                    if (i + 4 >= limit) {
                        throw NotScanned.INSTANCE;
                    }
                    for (int h = 1; h <= 4; h++) {
                        if (Character.digit(in[i + h], 16) < 0) {
                            throw NotScanned.INSTANCE;
                        }
                    }
                    i += 4;
                } else if ("\"\\/bfnrt".indexOf(escaped) < 0) {
                    throw NotScanned.INSTANCE;
                }
            } else {
                throw NotScanned.INSTANCE; // a control character
            }
            i++;
        }
        at = i + 1;
    }

    private void skipNumber() throws NotScanned {
        int start = at;
        if (at < limit && in[at] == '-') {
            at++;
        }
        boolean digits = false;
        while (at < limit) {
            byte b = in[at];
            if (b >= '0' && b <= '9') {
                digits = true;
            } else if (b != '.' && b != 'e' && b != 'E' && b != '+' && b != '-') {
                break;
            }
            at++;
        }
        if (!digits || at == start) {
            throw NotScanned.INSTANCE;
        }
    }

    private static void require(boolean read) throws NotScanned {
        if (!read) {
            throw NotScanned.INSTANCE;
        }
    }

    private byte peek() throws NotScanned {
        if (at >= limit) {
            throw NotScanned.INSTANCE;
        }
        return in[at];
    }

    private void expect(char c) throws NotScanned {
        if (peek() != c) {
            throw NotScanned.INSTANCE;
        }
        at++;
    }

    private void skipSpace() {
        at = JsonBytes.skipSpace(in, at, limit);
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
