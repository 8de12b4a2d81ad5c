package dev.watchkeeper.internal.resource;

import java.util.Locale;

/** Name guesses that need no API call. */
public final class ResourceNames {

    private ResourceNames() {
    }

    /**
     * The plural the API server most likely uses for {@code kind}, by Kubernetes' own guessing rule
     * ({@code UnsafeGuessKindToResource}): {@code ConfigMap → configmaps}, {@code Ingress → ingresses},
     * {@code NetworkPolicy → networkpolicies}. For names and display only; requests use the discovered plural.
     */
    public static String guessPlural(String kind) {
        String singular = kind.toLowerCase(Locale.ROOT);
        if (singular.endsWith("s")) {
            return singular + "es";
        }
        if (singular.endsWith("y")) {
            return singular.substring(0, singular.length() - 1) + "ies";
        }
        return singular + "s";
    }
}
