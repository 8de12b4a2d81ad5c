package dev.watchkeeper.test.apiserver;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A parsed Kubernetes label selector: {@code a=b}, {@code a==b}, {@code a!=b}, {@code a}, {@code !a},
 * {@code a in (x,y)}, {@code a notin (x)}, joined by commas.
 *
 * <pre>{@code
 * LabelSelector.parse("app=web,tier notin (db)").matches(Map.of("app", "web")); // true
 * }</pre>
 */
public final class LabelSelector {

    private static final Pattern SET = Pattern.compile("^([^\\s!=(),]+)\\s+(in|notin)\\s*\\(([^)]*)\\)$");
    private static final Pattern EQUALITY = Pattern.compile("^([^\\s!=(),]+)\\s*(==|=|!=)\\s*([^\\s!=(),]*)$");
    private static final Pattern KEY = Pattern.compile("^(!?)\\s*([^\\s!=(),]+)$");

    private final List<Requirement> requirements;

    private LabelSelector(List<Requirement> requirements) {
        this.requirements = requirements;
    }

    /**
     * Parses a selector; {@code null} or blank selects everything.
     *
     * @throws StatusException 400 BadRequest when malformed
     */
    public static LabelSelector parse(String selector) {
        List<Requirement> requirements = new ArrayList<>();
        if (selector != null && !selector.isBlank()) {
            for (String term : splitTerms(selector)) {
                requirements.add(requirement(term.trim(), selector));
            }
        }
        return new LabelSelector(List.copyOf(requirements));
    }

    /** Whether labels (possibly empty) satisfy every requirement. */
    public boolean matches(Map<String, String> labels) {
        return requirements.stream().allMatch(r -> r.test(labels));
    }

    private static List<String> splitTerms(String selector) {
        List<String> terms = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < selector.length(); i++) {
            char c = selector.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (c == ',' && depth == 0) {
                terms.add(selector.substring(start, i));
                start = i + 1;
            }
        }
        terms.add(selector.substring(start));
        return terms;
    }

    private static Requirement requirement(String term, String selector) {
        Matcher set = SET.matcher(term);
        if (set.matches()) {
            String key = set.group(1);
            Set<String> values = new HashSet<>(List.of(set.group(3).trim().split("\\s*,\\s*")));
            return set.group(2).equals("in")
                    ? labels -> values.contains(labels.get(key))
                    : labels -> !values.contains(labels.get(key));
        }
        Matcher equality = EQUALITY.matcher(term);
        if (equality.matches()) {
            String key = equality.group(1);
            String value = equality.group(3);
            return equality.group(2).equals("!=")
                    ? labels -> !value.equals(labels.get(key))
                    : labels -> value.equals(labels.get(key));
        }
        Matcher exists = KEY.matcher(term);
        if (exists.matches()) {
            String key = exists.group(2);
            return exists.group(1).isEmpty() ? labels -> labels.containsKey(key) : labels -> !labels.containsKey(key);
        }
        throw Statuses.badRequest("unable to parse requirement: \"" + term + "\" in label selector \"" + selector + "\"");
    }

    private interface Requirement {
        boolean test(Map<String, String> labels);
    }
}
