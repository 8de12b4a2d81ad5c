package dev.watchkeeper.internal.api;

/**
 * Ordering of resourceVersions as the API server defines it since Kubernetes 1.35: a well-formed version is a
 * decimal integer without leading zeros, and two well-formed versions compare as those integers (a longer one is
 * greater, equal lengths compare digit by digit). Any other version is opaque: it equals itself and is never ordered
 * against another.
 */
public final class ResourceVersions {

    private ResourceVersions() {
    }

    /**
     * Whether {@code seen} is {@code written} or a later version: equal, or both well-formed and {@code seen} the
     * greater. {@code false} when either is {@code null} or the two cannot be ordered.
     */
    public static boolean isAtLeast(String seen, String written) {
        if (seen == null || written == null) {
            return false;
        }
        if (seen.equals(written)) {
            return true;
        }
        if (!isWellFormed(seen) || !isWellFormed(written)) {
            return false;
        }
        return seen.length() != written.length() ? seen.length() > written.length() : seen.compareTo(written) > 0;
    }

    private static boolean isWellFormed(String version) {
        if (version.isEmpty() || version.charAt(0) == '0') {
            return false;
        }
        for (int i = 0; i < version.length(); i++) {
            char c = version.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }
}
