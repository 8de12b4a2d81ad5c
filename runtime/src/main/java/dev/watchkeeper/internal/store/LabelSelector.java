package dev.watchkeeper.internal.store;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A parsed Kubernetes label selector: equality ({@code a=b}, {@code a==b}, {@code a!=b}), existence ({@code a},
 * {@code !a}) and sets ({@code a in (x,y)}, {@code a notin (x)}), comma-separated, all of which must hold.
 *
 * <pre>{@code
 * LabelSelector.parse("app=web,tier notin (db)").matches(Map.of("app", "web"));   // true
 * }</pre>
 */
public final class LabelSelector implements Predicate<Map<String, String>> {

    /** A label key: an optional DNS prefix and a name (Kubernetes' qualified name, loosely). */
    private static final Pattern KEY = Pattern.compile("[A-Za-z0-9]([A-Za-z0-9._/-]*[A-Za-z0-9])?");
    /** A label value: empty, or alphanumerics with {@code -_.} inside. */
    private static final Pattern VALUE = Pattern.compile("([A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?)?");

    private final String text;
    private final List<Predicate<Map<String, String>>> requirements;

    private LabelSelector(String text, List<Predicate<Map<String, String>>> requirements) {
        this.text = text;
        this.requirements = requirements;
    }

    /**
     * Parses {@code selector}; a blank selector matches everything.
     *
     * @throws IllegalArgumentException naming the term that is not a valid requirement
     */
    public static LabelSelector parse(String selector) {
        List<Predicate<Map<String, String>>> requirements = new ArrayList<>();
        String text = selector == null ? "" : selector.trim();
        for (String term : splitTerms(text)) {
            requirements.add(requirement(term.trim(), text));
        }
        return new LabelSelector(text, List.copyOf(requirements));
    }

    /** Whether {@code labels} (null = none) satisfy every requirement. */
    public boolean matches(Map<String, String> labels) {
        Map<String, String> actual = labels == null ? Map.of() : labels;
        for (Predicate<Map<String, String>> requirement : requirements) {
            if (!requirement.test(actual)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public boolean test(Map<String, String> labels) {
        return matches(labels);
    }

    @Override
    public String toString() {
        return text;
    }

    private static List<String> splitTerms(String text) {
        List<String> terms = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (c == ',' && depth == 0) {
                terms.add(text.substring(start, i));
                start = i + 1;
            }
        }
        if (start < text.length()) {
            terms.add(text.substring(start));
        }
        return terms.stream().filter(t -> !t.isBlank()).toList();
    }

    private static Predicate<Map<String, String>> requirement(String term, String selector) {
        String[] setParts = term.split("\\s+(?=(in|notin)\\s*\\()", 2);
        if (setParts.length == 2) {
            String key = setParts[0].trim();
            String rest = setParts[1].trim();
            boolean in = rest.startsWith("in");
            int open = rest.indexOf('(');
            int close = rest.lastIndexOf(')');
            if (open < 0 || close < open) {
                throw invalid(selector, term);
            }
            key(key, selector, term);
            Set<String> values = Arrays.stream(rest.substring(open + 1, close).split(","))
                    .map(v -> value(v, selector, term)).filter(v -> !v.isEmpty())
                    .collect(Collectors.toUnmodifiableSet());
            return in
                    ? labels -> labels.containsKey(key) && values.contains(labels.get(key))
                    : labels -> !labels.containsKey(key) || !values.contains(labels.get(key));
        }
        int notEquals = term.indexOf("!=");
        if (notEquals > 0) {
            String key = key(term.substring(0, notEquals), selector, term);
            String value = value(term.substring(notEquals + 2), selector, term);
            return labels -> !value.equals(labels.get(key));
        }
        int equals = term.indexOf('=');
        if (equals > 0) {
            String key = key(term.substring(0, equals), selector, term);
            String value = value(term.substring(term.startsWith("==", equals) ? equals + 2 : equals + 1), selector,
                    term);
            return labels -> value.equals(labels.get(key));
        }
        if (term.startsWith("!")) {
            String key = key(term.substring(1), selector, term);
            return labels -> !labels.containsKey(key);
        }
        String key = key(term, selector, term);
        return labels -> labels.containsKey(key);
    }

    private static String key(String raw, String selector, String term) {
        String key = raw.trim();
        if (!KEY.matcher(key).matches()) {
            throw invalid(selector, term);
        }
        return key;
    }

    private static String value(String raw, String selector, String term) {
        String value = raw.trim();
        if (!VALUE.matcher(value).matches()) {
            throw invalid(selector, term);
        }
        return value;
    }

    private static IllegalArgumentException invalid(String selector, String term) {
        return new IllegalArgumentException("invalid label selector '" + selector + "': cannot parse '" + term + "'");
    }
}
