package dev.watchkeeper.autoconfigure;

import java.util.Collection;

/**
 * A {@code watchkeeper.*} property that stops start-up: its name, the value Watchkeeper saw, what is wrong and what
 * to do. {@link WatchkeeperPropertyFailureAnalyzer} shows it with the value as written and where it was written.
 *
 * <pre>{@code
 * throw WatchkeeperPropertyException.invalid("watchkeeper.backoff.multiplier", 0.5, "must be at least 1");
 * }</pre>
 */
class WatchkeeperPropertyException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String property;
    private final transient Object value;
    private final String reason;
    private final String action;

    private WatchkeeperPropertyException(String message, String property, Object value, String reason,
            String action) {
        super(message);
        this.property = property;
        this.value = value;
        this.reason = reason;
        this.action = action;
    }

    /** A value that breaks {@code rule} (e.g. {@code must be positive}). */
    static WatchkeeperPropertyException invalid(String property, Object value, String rule) {
        return new WatchkeeperPropertyException("Invalid value '" + value + "' for property " + property + ": " + rule,
                property, value, rule, "Correct " + property + ": " + rule + ".");
    }

    /** A key under {@code watchkeeper.} that binds to nothing. */
    static WatchkeeperPropertyException unknown(String property, Object value, String nearest) {
        return new WatchkeeperPropertyException("Unknown property " + property + "; did you mean " + nearest + "?",
                property, value, "Watchkeeper has no such property",
                "Did you mean " + nearest + "? Rename or remove " + property + ".");
    }

    /** An override ({@code watchkeeper.watchers.<name>.*}) whose name no watcher or reconciler has. */
    static WatchkeeperPropertyException unknownName(String property, Object value, String what, String name,
            Collection<String> known) {
        String reason = "it overrides the " + what + " '" + name + "', but no " + what + " has that name";
        String action = known.isEmpty()
                ? "No " + what + " is declared: declare one named '" + name + "', or remove the override."
                : "Use the name of a declared " + what + " " + known + "; a name with characters other than a-z,"
                        + " 0-9 and - goes in brackets, e.g. watchkeeper.watchers[configmaps@default].backoff"
                        + ".max-interval.";
        return new WatchkeeperPropertyException(property + ": " + reason + "; known: " + known, property, value,
                reason, action);
    }

    /** The property's name, e.g. {@code watchkeeper.watchers.cms.backoff.multiplier}. */
    String property() {
        return property;
    }

    /** The value as bound, shown when the Environment no longer has the value as written. */
    Object value() {
        return value;
    }

    /** What is wrong, e.g. {@code must be positive}. */
    String reason() {
        return reason;
    }

    /** What to do about it. */
    String action() {
        return action;
    }
}
