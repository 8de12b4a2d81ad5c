package dev.watchkeeper.internal.shard;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a {@code shardSelector} as kube-apiserver 1.37 does: it parses the text as a CEL expression, then walks the
 * tree, accepting only {@code shardRange} calls and {@code ||}. This parser knows the slice of CEL such a selector
 * can be written in (identifiers, selections, calls, {@code ||}, {@code &&}, parentheses, quoted strings without
 * escapes, numbers, booleans and null), so that a well-formed selector, and the mistakes one is likely to make in it, get
 * the server's own messages; other text is refused as a syntax error whose wording differs from CEL's.
 */
final class ShardSelectorParser {

    /** CEL's numbers for expression kinds, which the server's messages print. */
    private static final int CALL_KIND = 1;
    private static final int IDENT_KIND = 3;
    private static final int LITERAL_KIND = 5;
    private static final int SELECT_KIND = 7;

    private final String text;
    private int position;

    private ShardSelectorParser(String text) {
        this.text = text;
    }

    static ShardSelector parse(String selector) {
        String text = selector == null ? "" : selector.strip();
        if (text.isEmpty()) {
            throw new IllegalArgumentException(
                    "empty shard selector is not allowed; omit the parameter for unfiltered lists");
        }
        ShardSelectorParser parser = new ShardSelectorParser(text);
        Node root = parser.or();
        parser.skipSpace();
        if (parser.position < text.length()) {
            throw parser.syntaxError("unexpected '" + text.charAt(parser.position) + "'");
        }
        List<Requirement> requirements = new ArrayList<>();
        walk(root, requirements);
        ShardField field = requirements.get(0).field();
        List<HashRange> ranges = new ArrayList<>();
        for (Requirement requirement : requirements) {
            if (requirement.field() != field) {
                throw new IllegalArgumentException("all shard ranges must use the same field, got "
                        + quote(field.path()) + " and " + quote(requirement.field().path()));
            }
            ranges.add(requirement.range());
        }
        return new ShardSelector(field, new ShardRanges(ranges));
    }

    // The walk, with the server's checks in the server's order.

    private static void walk(Node node, List<Requirement> into) {
        if (!(node instanceof Call call)) {
            throw new IllegalArgumentException("unexpected expression kind " + node.kind()
                    + "; expected shardRange() call or || operator");
        }
        switch (call.function()) {
            case "_||_" -> {
                walk(call.args().get(0), into);
                walk(call.args().get(1), into);
            }
            case "shardRange" -> into.add(shardRange(call));
            default -> throw new IllegalArgumentException("unsupported function " + quote(call.function())
                    + "; only shardRange() and || are allowed");
        }
    }

    private static Requirement shardRange(Call call) {
        if (call.args().size() != 3) {
            throw new IllegalArgumentException(
                    "shardRange() requires exactly 3 arguments, got " + call.args().size());
        }
        String path = fieldPath(call.args().get(0));
        ShardField field = switch (path) {
            case "object.metadata.uid" -> ShardField.UID;
            case "object.metadata.namespace" -> ShardField.NAMESPACE;
            default -> throw new IllegalArgumentException("unsupported field path " + quote(path)
                    + "; supported: object.metadata.uid, object.metadata.namespace");
        };
        String start = hexLiteral(call.args().get(1), "hexStart");
        String end = hexLiteral(call.args().get(2), "hexEnd");
        if (!hexLess(start, end)) {
            throw new IllegalArgumentException("shard range start " + start + " must be less than end " + end);
        }
        long first = Long.parseUnsignedLong(start.substring(2), 16);
        return new Requirement(field, end.equals(HashRange.TOP) ? HashRange.toTop(first)
                : HashRange.of(first, Long.parseUnsignedLong(end.substring(2), 16)));
    }

    private static String fieldPath(Node node) {
        if (node instanceof Ident ident) {
            return ident.name();
        }
        if (node instanceof Select select) {
            return fieldPath(select.operand()) + "." + select.field();
        }
        throw new IllegalArgumentException("shardRange() first argument: expected field path (e.g. "
                + "object.metadata.uid), got expression kind " + node.kind());
    }

    private static String hexLiteral(Node node, String name) {
        if (!(node instanceof Literal literal)) {
            throw new IllegalArgumentException(name + " must be a string literal (e.g. '0xff'), got expression kind "
                    + node.kind());
        }
        if (!(literal.value() instanceof String value)) {
            throw new IllegalArgumentException(name + " must be a string literal, got " + literal.goType());
        }
        if (!value.startsWith("0x")) {
            throw new IllegalArgumentException(name + " must have '0x' prefix, got " + quote(value));
        }
        String hex = value.substring(2);
        if (hex.isEmpty()) {
            throw new IllegalArgumentException(name + ": hex value is required after '0x'");
        }
        int bytes = hex.getBytes(StandardCharsets.UTF_8).length;   // Go counts a string's length in bytes
        if (bytes > 17) {
            throw new IllegalArgumentException(name + ": hex value too long (" + bytes + " chars, max 17): "
                    + quote(hex));
        }
        for (int c : hex.codePoints().toArray()) {
            if ((c < '0' || c > '9') && (c < 'a' || c > 'f')) {
                throw new IllegalArgumentException(name + ": invalid hex character "
                        + quote(new String(Character.toChars(c))) + " in " + quote(value));
            }
        }
        int length = hex.length();
        if (length == 17) {
            if (!value.equals(HashRange.TOP)) {
                throw new IllegalArgumentException(name + ": 17-digit hex value must be '" + HashRange.TOP
                        + "' (2^64), got " + quote(value));
            }
        } else if (length != 16) {
            throw new IllegalArgumentException(name + " must be a 0x-prefixed 16-digit hex value, got " + quote(value)
                    + " (did you mean " + quote("0x" + "0".repeat(16 - length) + hex) + "?)");
        }
        return value;
    }

    /** The server's order of canonical bounds: a shorter one (16 digits) is below the 17-digit top. */
    private static boolean hexLess(String a, String b) {
        return a.length() != b.length() ? a.length() < b.length() : a.compareTo(b) < 0;
    }

    /** Go's {@code %q} for the strings these messages quote. */
    private static String quote(String value) {
        StringBuilder quoted = new StringBuilder("\"");
        for (char c : value.toCharArray()) {
            switch (c) {
                case '"' -> quoted.append("\\\"");
                case '\\' -> quoted.append("\\\\");
                case '\n' -> quoted.append("\\n");
                case '\t' -> quoted.append("\\t");
                case '\r' -> quoted.append("\\r");
                default -> {
                    if (c < 0x20 || c == 0x7f) {
                        quoted.append(String.format("\\x%02x", (int) c));
                    } else {
                        quoted.append(c);
                    }
                }
            }
        }
        return quoted.append('"').toString();
    }

    // The CEL slice: or := and ('||' and)*; and := member ('&&' member)*; member := primary ('.' IDENT call?)*;
    // primary := IDENT call? | '(' or ')' | STRING | INT; call := '(' (or (',' or)*)? ')'.

    private Node or() {
        Node left = and();
        while (take("||")) {
            left = new Call("_||_", List.of(left, and()));
        }
        return left;
    }

    private Node and() {
        Node left = member();
        while (take("&&")) {
            left = new Call("_&&_", List.of(left, member()));
        }
        return left;
    }

    private Node member() {
        Node node = primary();
        while (take(".")) {
            String name = identifier();
            // A receiver-style call's target is not among CEL's call arguments, so the walk never sees it.
            node = peek('(') ? new Call(name, arguments()) : new Select(node, name);
        }
        return node;
    }

    private Node primary() {
        skipSpace();
        if (position >= text.length()) {
            throw syntaxError("unexpected end of input");
        }
        char c = text.charAt(position);
        if (take("(")) {
            Node inner = or();
            expect(')');
            return inner;
        }
        if (c == '\'' || c == '"') {
            return new Literal(string(c));
        }
        if (Character.isDigit(c)) {
            return new Literal(number());
        }
        String name = identifier();
        if (peek('(')) {
            return new Call(name, arguments());
        }
        return switch (name) {
            case "true" -> new Literal(Boolean.TRUE);
            case "false" -> new Literal(Boolean.FALSE);
            case "null" -> new Literal(Literal.NULL);
            default -> new Ident(name);
        };
    }

    private List<Node> arguments() {
        expect('(');
        List<Node> args = new ArrayList<>();
        if (take(")")) {
            return args;
        }
        do {
            args.add(or());
        } while (take(","));
        expect(')');
        return args;
    }

    private String identifier() {
        skipSpace();
        int start = position;
        while (position < text.length() && (Character.isLetterOrDigit(text.charAt(position))
                || text.charAt(position) == '_') && text.charAt(position) < 0x80) {
            position++;
        }
        if (start == position || Character.isDigit(text.charAt(start))) {
            throw syntaxError(position < text.length() ? "unexpected '" + text.charAt(position) + "'"
                    : "unexpected end of input");
        }
        return text.substring(start, position);
    }

    private String string(char quote) {
        int start = ++position;
        while (position < text.length() && text.charAt(position) != quote) {
            char c = text.charAt(position);
            if (c == '\\' || c == '\n' || c == '\r') {
                throw syntaxError("escapes and line breaks in strings are not supported here");
            }
            position++;
        }
        if (position >= text.length()) {
            throw syntaxError("unterminated string");
        }
        return text.substring(start, position++);
    }

    /** A CEL int ({@link Long}, decimal or {@code 0x} hex) or double ({@link Double}). */
    private Object number() {
        int start = position;
        while (position < text.length() && (Character.isLetterOrDigit(text.charAt(position))
                || text.charAt(position) == '.' && position + 1 < text.length()
                && Character.isDigit(text.charAt(position + 1)))) {
            position++;
        }
        String digits = text.substring(start, position);
        try {
            return digits.startsWith("0x") ? Long.parseLong(digits.substring(2), 16)
                    : digits.contains(".") ? (Object) Double.parseDouble(digits) : (Object) Long.parseLong(digits);
        } catch (NumberFormatException e) {
            throw syntaxError("invalid number " + digits);
        }
    }

    private boolean take(String token) {
        skipSpace();
        if (text.startsWith(token, position)) {
            position += token.length();
            return true;
        }
        return false;
    }

    private boolean peek(char c) {
        skipSpace();
        return position < text.length() && text.charAt(position) == c;
    }

    private void expect(char c) {
        if (!take(String.valueOf(c))) {
            throw syntaxError(position < text.length()
                    ? "expected '" + c + "' at '" + text.charAt(position) + "'" : "expected '" + c + "' at the end");
        }
    }

    private void skipSpace() {
        while (position < text.length() && " \t\n\r\f".indexOf(text.charAt(position)) >= 0) {
            position++;
        }
    }

    private IllegalArgumentException syntaxError(String detail) {
        return new IllegalArgumentException("CEL parse error: Syntax error: " + detail + " (offset " + position + ")");
    }

    private record Requirement(ShardField field, HashRange range) {
    }

    /** A node of the parsed expression, with CEL's kind number. */
    private sealed interface Node permits Call, Select, Ident, Literal {
        int kind();
    }

    private record Call(String function, List<Node> args) implements Node {
        public int kind() {
            return CALL_KIND;
        }
    }

    private record Select(Node operand, String field) implements Node {
        public int kind() {
            return SELECT_KIND;
        }
    }

    private record Ident(String name) implements Node {
        public int kind() {
            return IDENT_KIND;
        }
    }

    /** A string, {@link Long} (CEL int), {@link Double}, {@link Boolean} or {@link #NULL} constant. */
    private record Literal(Object value) implements Node {

        static final Object NULL = new Object();

        public int kind() {
            return LITERAL_KIND;
        }

        /** The Go type the server's message names. */
        String goType() {
            if (value instanceof Long) {
                return "int64";
            }
            if (value instanceof Double) {
                return "float64";
            }
            return value instanceof Boolean ? "bool" : "structpb.NullValue";
        }
    }
}
