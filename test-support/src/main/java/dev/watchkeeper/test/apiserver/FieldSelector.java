package dev.watchkeeper.test.apiserver;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * A parsed field selector: comma-joined {@code path=value}, {@code path==value} or {@code path!=value}, where
 * path is a dotted JSON path such as {@code metadata.name}, {@code metadata.namespace} or {@code status.phase}.
 *
 * <pre>{@code
 * FieldSelector.parse("metadata.name=x").matches(object);
 * }</pre>
 */
final class FieldSelector {

    private final List<Term> terms;

    private FieldSelector(List<Term> terms) {
        this.terms = terms;
    }

    /**
     * Parses a selector; {@code null} or blank selects everything.
     *
     * @throws StatusException 400 BadRequest when a term has no operator
     */
    public static FieldSelector parse(String selector) {
        List<Term> terms = new ArrayList<>();
        if (selector != null && !selector.isBlank()) {
            for (String raw : selector.split(",")) {
                terms.add(term(raw.trim(), selector));
            }
        }
        return new FieldSelector(List.copyOf(terms));
    }

    /** Whether the object satisfies every term; an absent field counts as {@code ""}. */
    public boolean matches(JsonObject object) {
        for (Term term : terms) {
            if (term.negated() == term.value().equals(lookup(object, term.path()))) {
                return false;
            }
        }
        return true;
    }

    /** Whether there are no terms, so every object matches. */
    public boolean isEmpty() {
        return terms.isEmpty();
    }

    private static Term term(String raw, String selector) {
        int ne = raw.indexOf("!=");
        if (ne > 0) {
            return new Term(raw.substring(0, ne).trim(), raw.substring(ne + 2).trim(), true);
        }
        int eq = raw.indexOf('=');
        if (eq <= 0) {
            throw Statuses.badRequest("invalid selector: '" + selector + "'; can't understand '" + raw + "'");
        }
        int valueStart = raw.startsWith("==", eq) ? eq + 2 : eq + 1;
        return new Term(raw.substring(0, eq).trim(), raw.substring(valueStart).trim(), false);
    }

    private static String lookup(JsonObject object, String path) {
        JsonElement current = object;
        for (String part : path.split("\\.")) {
            if (current == null || !current.isJsonObject()) {
                return "";
            }
            current = current.getAsJsonObject().get(part);
        }
        return current == null || current.isJsonNull() || !current.isJsonPrimitive() ? "" : current.getAsString();
    }

    private record Term(String path, String value, boolean negated) {
    }
}
