package dev.watchkeeper.crd.processor;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Javadoc comment as the plain text of a schema description: the main description without its block tags
 * ({@code @param}, {@code @see}, ...), inline tags as their text, HTML tags dropped, each paragraph on one line and
 * paragraphs apart by a blank line.
 */
final class JavadocText {

    private static final Pattern INLINE_TAG = Pattern.compile("\\{@(code|literal|value|link|linkplain)\\s+([^}]*)}");
    private static final Pattern PARAGRAPH = Pattern.compile("(?i)<p\\s*/?>|</p>");
    private static final Pattern TAG = Pattern.compile("</?[A-Za-z][^>]*>");

    private JavadocText() {
    }

    /** The description in {@code comment}, or an empty string if it has none ({@code comment} may be null). */
    static String description(String comment) {
        if (comment == null) {
            return "";
        }
        List<String> main = new ArrayList<>();
        for (String line : comment.split("\n", -1)) {
            if (line.strip().startsWith("@")) {
                break; // the block tags end the main description
            }
            main.add(line);
        }
        return plain(String.join("\n", main));
    }

    /** The text of each {@code @param name text} block tag of {@code comment}: a record's components, by name. */
    static Map<String, String> parameters(String comment) {
        Map<String, String> parameters = new LinkedHashMap<>();
        if (comment == null) {
            return parameters;
        }
        String name = null;
        StringBuilder text = new StringBuilder();
        for (String line : (comment + "\n@end").split("\n", -1)) {
            String stripped = line.strip();
            if (stripped.startsWith("@")) {
                if (name != null && !plain(text.toString()).isEmpty()) {
                    parameters.put(name, plain(text.toString()));
                }
                name = null;
                text.setLength(0);
                String[] words = stripped.split("\\s+", 3);
                if (words[0].equals("@param") && words.length > 1) {
                    name = words[1];
                    text.append(words.length > 2 ? words[2] : "");
                }
            } else if (name != null) {
                text.append('\n').append(line);
            }
        }
        return parameters;
    }

    private static String plain(String text) {
        // inline tags are taken as they are; HTML and entities are read only in the text around them
        StringBuilder out = new StringBuilder();
        Matcher inline = INLINE_TAG.matcher(text);
        int at = 0;
        while (inline.find()) {
            out.append(html(text.substring(at, inline.start())));
            out.append(inline.group(1).startsWith("link") ? link(inline.group(2)) : inline.group(2).strip());
            at = inline.end();
        }
        out.append(html(text.substring(at)));
        List<String> paragraphs = new ArrayList<>();
        for (String paragraph : out.toString().split("\\n\\s*\\n")) {
            String joined = paragraph.strip().replaceAll("\\s+", " ");
            if (!joined.isEmpty()) {
                paragraphs.add(joined);
            }
        }
        return String.join("\n\n", paragraphs);
    }

    /** A link's label, or else its reference ({@code Spec#replicas} as {@code Spec.replicas}). */
    private static String link(String body) {
        String[] parts = body.strip().split("\\s+", 2);
        return parts.length > 1 ? parts[1].strip() : parts[0].replaceFirst("^#", "").replace('#', '.');
    }

    private static String html(String text) {
        text = PARAGRAPH.matcher(text).replaceAll("\n\n");
        text = TAG.matcher(text).replaceAll("");
        return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&");
    }
}
