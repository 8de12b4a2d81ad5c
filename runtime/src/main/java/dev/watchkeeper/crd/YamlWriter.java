package dev.watchkeeper.crd;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Block-style YAML of maps, lists, strings, numbers and booleans, the way CRDs are written by hand: two spaces per
 * level, {@code {}} and {@code []} for empty ones, strings plain unless YAML would read them as something else.
 */
final class YamlWriter {

    private static final Pattern PLAIN = Pattern.compile("[A-Za-z_./][A-Za-z0-9_./-]*");
    private static final Set<String> RESERVED = Set.of("true", "false", "null", "yes", "no", "on", "off", "y", "n",
            ".inf", ".nan");

    private final StringBuilder out = new StringBuilder();

    private YamlWriter() {
    }

    static String write(Map<String, Object> document) {
        YamlWriter writer = new YamlWriter();
        writer.map(document, 0, false);
        return writer.out.toString();
    }

    /** @param inline whether the first entry follows a list dash already written */
    private void map(Map<?, ?> map, int indent, boolean inline) {
        boolean first = true;
        for (Map.Entry<?, ?> entry : map.entrySet()) {
            if (!(first && inline)) {
                out.append(" ".repeat(indent));
            }
            first = false;
            out.append(scalar(entry.getKey())).append(':');
            value(entry.getValue(), indent + 2);
        }
    }

    private void value(Object value, int indent) {
        if (value instanceof Map<?, ?> map && !map.isEmpty()) {
            out.append('\n');
            map(map, indent, false);
        } else if (value instanceof List<?> list && !list.isEmpty()) {
            out.append('\n');
            list(list, indent);
        } else {
            out.append(' ').append(scalar(value)).append('\n');
        }
    }

    private void list(List<?> list, int indent) {
        for (Object item : list) {
            out.append(" ".repeat(indent)).append("- ");
            if (item instanceof Map<?, ?> map && !map.isEmpty()) {
                map(map, indent + 2, true);
            } else if (item instanceof List<?> nested && !nested.isEmpty()) {
                out.append('\n');
                list(nested, indent + 2);
            } else {
                out.append(scalar(item)).append('\n');
            }
        }
    }

    private static String scalar(Object value) {
        if (value instanceof Map<?, ?>) {
            return "{}";
        }
        if (value instanceof List<?>) {
            return "[]";
        }
        if (value instanceof Number || value instanceof Boolean) {
            return value.toString();
        }
        String text = String.valueOf(value);
        if (PLAIN.matcher(text).matches() && !RESERVED.contains(text.toLowerCase(Locale.ROOT))) {
            return text;
        }
        return quoted(text);
    }

    /** Double-quoted, the escapes YAML shares with JSON. */
    private static String quoted(String text) {
        StringBuilder quoted = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> quoted.append("\\\"");
                case '\\' -> quoted.append("\\\\");
                case '\n' -> quoted.append("\\n");
                case '\t' -> quoted.append("\\t");
                default -> {
                    if (c < 0x20) {
                        quoted.append(String.format("\\u%04x", (int) c));
                    } else {
                        quoted.append(c);
                    }
                }
            }
        }
        return quoted.append('"').toString();
    }
}
