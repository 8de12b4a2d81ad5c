package dev.watchkeeper.internal.watch.http;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * Random Kubernetes JSON drawn from one {@link Random}: ConfigMaps and Pods as an API server writes them, with keys in
 * any order, optional fields left out or {@code null}, white space anywhere, strings of escapes, multi-byte
 * characters and surrogate pairs (raw and escaped), numbers in every form JSON allows and at the edges of int and
 * long, a few things only a lenient reader takes (raw control characters, unpaired escaped surrogates, repeated
 * keys); watch lines around them; and the same cut short or with bytes flipped, dropped or added.
 */
final class GeneratedJson {

    /** The numbers at the edges: int and long overflow, negative zero, fractions, exponents. */
    private static final String[] EDGE_NUMBERS = {"0", "-0", "1", "-1", "0.0", "1.0", "1.5", "-1.5", "1e2", "1E+2",
        "1e-2", "2.5E3", "2147483647", "2147483648", "-2147483648", "-2147483649", "9223372036854775807",
        "9223372036854775808", "-9223372036854775808", "-9223372036854775809", "1e19", "123456789012345678901234567890",
        "0.1e1", "100.000"};
    private static final String[] QUANTITIES = {"500m", "1", "0.25", "1Gi", "128Mi", "1e3", "2k", "1.5", "100M",
        "0", "-1", "1Ei", "12345678901234567890"};
    private static final String[] ESCAPES = {"\\\"", "\\\\", "\\/", "\\b", "\\f", "\\n", "\\r", "\\t"};

    private final Random random;
    /** Whether white space may break lines: not inside a watch line, which ends at a line break. */
    private final boolean lineBreaks;

    GeneratedJson(Random random, boolean lineBreaks) {
        this.random = random;
        this.lineBreaks = lineBreaks;
    }

    /** A ConfigMap or a Pod. */
    String object() {
        return random.nextBoolean() ? configMap() : pod();
    }

    String configMap() {
        return object(member("apiVersion", () -> "\"v1\"", 0.95), member("kind", () -> "\"ConfigMap\"", 0.95),
                member("metadata", this::metadata, 0.98),
                member("data", () -> map(this::string, 5), 0.8),
                member("binaryData", () -> map(this::base64, 2), 0.2),
                member("immutable", this::bool, 0.2));
    }

    String pod() {
        return object(member("apiVersion", () -> "\"v1\"", 0.95), member("kind", () -> "\"Pod\"", 0.95),
                member("metadata", this::metadata, 0.98), member("spec", this::podSpec, 0.9),
                member("status", this::podStatus, 0.6));
    }

    /** {@code {"type":…,"object":…}} around {@code object}: a change, rarely another type. */
    String watchLine(String object) {
        int pick = random.nextInt(100);
        String type = pick < 40 ? "ADDED" : pick < 75 ? "MODIFIED" : pick < 97 ? "DELETED" : "WATCHED";
        return object(member("type", () -> quoted(type), 0.99), member("object", () -> object, 0.99));
    }

    /** A bookmark, sometimes the one that ends a streaming list. */
    String bookmarkLine() {
        String metadata = object(member("resourceVersion", () -> quoted(digits()), 0.97),
                member("annotations", () -> object(member("k8s.io/initial-events-end", () -> "\"true\"", 1)), 0.3));
        String object = object(member("kind", () -> "\"ConfigMap\"", 0.9), member("apiVersion", () -> "\"v1\"", 0.9),
                member("metadata", () -> metadata, 0.98));
        return object(member("type", () -> "\"BOOKMARK\"", 1), member("object", () -> object, 1));
    }

    /**
     * {@code json} as it came, or cut short at a random byte, or with one to three bytes flipped (a bit, or to a byte
     * JSON gives a meaning to), dropped or added. Without {@link #lineBreaks} no line break is brought in.
     */
    byte[] mutate(byte[] json) {
        int pick = random.nextInt(10);
        if (pick < 4 || json.length == 0) {
            return json;
        }
        if (pick < 6) {
            return Arrays.copyOf(json, random.nextInt(json.length));
        }
        byte[] bytes = json;
        for (int edits = 1 + random.nextInt(3); edits > 0; edits--) {
            int at = random.nextInt(bytes.length);
            switch (random.nextInt(3)) {
                case 0 -> {
                    bytes = bytes.clone();
                    bytes[at] = replacement(bytes[at]);
                }
                case 1 -> bytes = splice(bytes, at, 1, new byte[0]);
                default -> bytes = splice(bytes, at, 0, new byte[] {replacement((byte) 0)});
            }
            if (bytes.length == 0) {
                return bytes;
            }
        }
        return bytes;
    }

    private byte replacement(byte old) {
        byte[] meaningful = "\"\\{}[],:0-.eE+tfnu \t\r/ÿ".getBytes(StandardCharsets.ISO_8859_1);
        byte b;
        do {
            b = switch (random.nextInt(3)) {
                case 0 -> (byte) (old ^ (1 << random.nextInt(8)));
                case 1 -> meaningful[random.nextInt(meaningful.length)];
                default -> (byte) random.nextInt(256);
            };
        } while (!lineBreaks && b == '\n');
        return b;
    }

    private static byte[] splice(byte[] in, int at, int remove, byte[] insert) {
        byte[] out = new byte[in.length - remove + insert.length];
        System.arraycopy(in, 0, out, 0, at);
        System.arraycopy(insert, 0, out, at, insert.length);
        System.arraycopy(in, at + remove, out, at + insert.length, in.length - at - remove);
        return out;
    }

    private String metadata() {
        return object(member("name", this::name, 0.97), member("namespace", this::name, 0.8),
                member("uid", this::uid, 0.8), member("resourceVersion", () -> quoted(digits()), 0.9),
                member("generation", this::number, 0.5), member("creationTimestamp", this::timestamp, 0.7),
                member("deletionTimestamp", this::timestamp, 0.15),
                member("labels", () -> map(this::string, 4), 0.6),
                member("annotations", () -> map(this::string, 3), 0.4),
                member("finalizers", () -> list(this::string, 2), 0.2),
                member("ownerReferences", () -> list(this::ownerReference, 2), 0.3),
                member("managedFields", () -> list(this::managedFieldsEntry, 2), 0.3));
    }

    private String ownerReference() {
        return object(member("apiVersion", () -> "\"apps/v1\"", 0.95), member("kind", this::string, 0.95),
                member("name", this::string, 0.95), member("uid", this::uid, 0.95),
                member("controller", this::bool, 0.7), member("blockOwnerDeletion", this::bool, 0.5));
    }

    private String managedFieldsEntry() {
        return object(member("manager", this::string, 0.9), member("operation", () -> "\"Update\"", 0.9),
                member("apiVersion", () -> "\"v1\"", 0.9), member("time", this::timestamp, 0.9),
                member("fieldsType", () -> "\"FieldsV1\"", 0.9),
                member("fieldsV1", () -> object(member("f:data", () -> object(member(".", () -> "{}", 1),
                        member("f:" + plain(), () -> "{}", 0.8)), 1)), 0.9));
    }

    private String podSpec() {
        return object(member("containers", () -> list(this::container, 2), 0.95),
                member("terminationGracePeriodSeconds", this::number, 0.5),
                member("activeDeadlineSeconds", this::number, 0.3), member("priority", this::number, 0.3),
                member("nodeSelector", () -> map(this::string, 2), 0.3), member("hostNetwork", this::bool, 0.3),
                member("tolerations", () -> list(this::toleration, 2), 0.3));
    }

    private String container() {
        return object(member("name", this::string, 0.95), member("image", this::string, 0.9),
                member("args", () -> list(this::string, 3), 0.4),
                member("ports", () -> list(() -> object(member("containerPort", this::number, 0.95),
                        member("protocol", () -> "\"TCP\"", 0.5)), 2), 0.5),
                member("env", () -> list(() -> object(member("name", this::string, 0.95),
                        member("value", this::string, 0.8)), 3), 0.4),
                member("resources", () -> object(member("limits", () -> quantities(), 0.7),
                        member("requests", () -> quantities(), 0.7)), 0.5));
    }

    private String quantities() {
        return object(member("cpu", this::quantity, 0.9), member("memory", this::quantity, 0.9));
    }

    private String toleration() {
        return object(member("key", this::string, 0.9), member("operator", () -> "\"Exists\"", 0.9),
                member("effect", () -> "\"NoExecute\"", 0.5), member("tolerationSeconds", this::number, 0.5));
    }

    private String podStatus() {
        return object(member("phase", () -> "\"Running\"", 0.9), member("podIP", this::string, 0.5),
                member("startTime", this::timestamp, 0.5),
                member("conditions", () -> list(() -> object(member("type", this::string, 0.95),
                        member("status", () -> "\"True\"", 0.95), member("lastTransitionTime", this::timestamp, 0.8),
                        member("message", this::string, 0.4)), 2), 0.6));
    }

    /** A member's text, or {@code null} when left out; rarely a {@code null} value. */
    private String member(String key, Supplier<String> value, double present) {
        if (random.nextDouble() >= present) {
            return null;
        }
        return quoted(key) + space() + ":" + space() + (random.nextInt(50) == 0 ? "null" : value.get());
    }

    /** The members that are present, in the order given or shuffled; rarely one of them twice. */
    private String object(String... members) {
        List<String> present = new ArrayList<>();
        for (String member : members) {
            if (member != null) {
                present.add(member);
            }
        }
        if (random.nextInt(4) == 0) {
            Collections.shuffle(present, random);
        }
        if (!present.isEmpty() && random.nextInt(40) == 0) {
            present.add(random.nextInt(present.size() + 1), present.get(random.nextInt(present.size())));
        }
        return "{" + space() + String.join(space() + "," + space(), present) + space() + "}";
    }

    private String map(Supplier<String> values, int most) {
        List<String> members = new ArrayList<>();
        for (int i = random.nextInt(most + 1); i > 0; i--) {
            members.add(member(random.nextInt(3) == 0 ? plain() : unquote(string()), values, 1));
        }
        return object(members.toArray(String[]::new));
    }

    private String list(Supplier<String> elements, int most) {
        List<String> items = new ArrayList<>();
        for (int i = random.nextInt(most + 1); i > 0; i--) {
            items.add(elements.get());
        }
        return "[" + space() + String.join(space() + "," + space(), items) + space() + "]";
    }

    private String space() {
        if (random.nextInt(4) != 0) {
            return "";
        }
        String[] spaces = lineBreaks ? new String[] {" ", "  ", "\t", "\r", "\n", " \n "} : new String[] {" ", "  ",
            "\t", "\r"};
        return spaces[random.nextInt(spaces.length)];
    }

    /** A name as the API server allows it, or rarely any string. */
    private String name() {
        return random.nextInt(10) == 0 ? string() : quoted(plain());
    }

    private String plain() {
        String alphabet = "abcdefghijklmnopqrstuvwxyz0123456789-.";
        StringBuilder out = new StringBuilder();
        for (int i = 1 + random.nextInt(20); i > 0; i--) {
            out.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return out.toString();
    }

    private static String unquote(String quoted) {
        return quoted.substring(1, quoted.length() - 1);
    }

    private static String quoted(String text) {
        return "\"" + text + "\"";
    }

    /** A JSON string: plain runs, escapes, multi-byte characters raw and escaped, rarely a long run or oddities. */
    private String string() {
        StringBuilder out = new StringBuilder("\"");
        for (int pieces = random.nextInt(10); pieces > 0; pieces--) {
            int pick = random.nextInt(100);
            if (pick < 35) {
                out.append(plain());
            } else if (pick < 50) {
                out.append(ESCAPES[random.nextInt(ESCAPES.length)]);
            } else if (pick < 60) {
                out.append(escaped(bmpCharacter()));
            } else if (pick < 68) {
                int codePoint = 0x10000 + random.nextInt(0x100000);
                out.append(escaped(Character.highSurrogate(codePoint))).append(escaped(Character.lowSurrogate(
                        codePoint)));
            } else if (pick < 80) {
                out.append(bmpCharacter());
            } else if (pick < 88) {
                out.appendCodePoint(0x10000 + random.nextInt(0x100000));
            } else if (pick < 90) {
                out.append("x".repeat(500 + random.nextInt(2000))); // past Gson's 1,024-character buffer
            } else if (pick < 92) {
                out.append(lineBreaks ? (char) random.nextInt(0x20) : (char) (0x0b + random.nextInt(0x15)));
            } else if (pick < 93) {
                out.append(escaped((char) (0xd800 + random.nextInt(0x800)))); // an unpaired surrogate
            } else {
                out.append(' ');
            }
        }
        return out.append('"').toString();
    }

    private char bmpCharacter() {
        char c;
        do {
            c = (char) (0x80 + random.nextInt(0xff80));
        } while (Character.isSurrogate(c));
        return c;
    }

    private String escaped(char c) {
        String hex = String.format("%04x", (int) c);
        return "\\u" + (random.nextBoolean() ? hex : hex.toUpperCase(Locale.ROOT));
    }

    private String digits() {
        return Long.toString(random.nextInt(3) == 0 ? random.nextLong() & Long.MAX_VALUE : random.nextInt(100_000));
    }

    /** A number in any form JSON allows, often at an edge, rarely a string holding one. */
    private String number() {
        String number = random.nextInt(3) == 0 ? EDGE_NUMBERS[random.nextInt(EDGE_NUMBERS.length)]
                : Integer.toString(random.nextInt(100_000));
        return random.nextInt(20) == 0 ? quoted(number) : number;
    }

    private String bool() {
        return random.nextInt(20) == 0 ? "\"true\"" : Boolean.toString(random.nextBoolean());
    }

    private String uid() {
        if (random.nextInt(5) == 0) {
            return string();
        }
        String uuid = new UUID(random.nextLong(), random.nextLong()).toString();
        return quoted(random.nextInt(10) == 0 ? uuid.toUpperCase(Locale.ROOT) : uuid);
    }

    private String quantity() {
        String quantity = QUANTITIES[random.nextInt(QUANTITIES.length)];
        return random.nextInt(5) == 0 && Character.isDigit(quantity.charAt(quantity.length() - 1)) ? quantity
                : quoted(quantity);
    }

    private String base64() {
        byte[] bytes = new byte[random.nextInt(12)];
        random.nextBytes(bytes);
        String encoded = Base64.getEncoder().encodeToString(bytes);
        return quoted(random.nextInt(20) == 0 ? encoded + "!" : encoded);
    }

    /**
     * An RFC 3339 time as the API server writes it or in another form RFC 3339 allows (fractions of 1 to 9 digits,
     * offsets, lower case), the client's {@code +0000}, or rarely something that is no time.
     */
    private String timestamp() {
        int pick = random.nextInt(20);
        if (pick == 0) {
            return string();
        }
        StringBuilder out = new StringBuilder(String.format("%04d-%02d-%02d%s%02d:%02d:%02d", 1970 + random.nextInt(
                100), 1 + random.nextInt(12), 1 + random.nextInt(28), random.nextInt(10) == 0 ? "t" : "T",
                random.nextInt(24), random.nextInt(60), random.nextInt(60)));
        if (random.nextInt(3) == 0) {
            out.append('.');
            for (int i = 1 + random.nextInt(9); i > 0; i--) {
                out.append((char) ('0' + random.nextInt(10)));
            }
        }
        String[] zones = {"Z", "Z", "Z", "z", "+02:00", "-05:30", "+00:00", "+0000", "+14:00"};
        out.append(zones[random.nextInt(zones.length)]);
        return quoted(out.toString());
    }
}
