package dev.watchkeeper.internal.text;

/**
 * Counted nouns in Watchkeeper's messages, so none reads "1 failures".
 *
 * <pre>{@code
 * Plural.count(1, "watcher");  // "1 watcher"
 * Plural.count(3, "failure");  // "3 failures"
 * }</pre>
 */
public final class Plural {

    private Plural() {
    }

    /** {@code count} and {@code noun}, with an {@code s} unless the count is one; for nouns with a regular plural. */
    public static String count(long count, String noun) {
        return count + " " + noun + (count == 1 ? "" : "s");
    }
}
