package dev.watchkeeper.internal.text;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Makes text from a server safe to show and log: a Status message or a body may echo what the client sent or what
 * an object holds. Bearer and Basic credentials, the values of credential-like fields, PEM blocks (and their base64
 * form, as in a kubeconfig's {@code client-key-data}) are masked; an echoed object is cut where its {@code data},
 * {@code stringData} or {@code spec} begins; the result is capped at 200 characters.
 *
 * <pre>{@code
 * Redaction.of("Unauthorized: Authorization: Bearer eyJhbGci…") // "Unauthorized: Authorization: Bearer <redacted>"
 * }</pre>
 */
public final class Redaction {

    static final int MAX_LENGTH = 200;
    static final String MASK = "<redacted>";

    private static final Pattern SCHEME = Pattern.compile("(?i)\\b(bearer|basic)(\\s+)[^\\s\"',;)}\\]]+");
    private static final Pattern FIELD = Pattern.compile(
            "(?i)(authorization|token|password|secret|client-key(?:-data)?|client-certificate-data)"
                    + "([\"']?\\s*[:=]\\s*[\"']?)(?!<redacted>|bearer\\s|basic\\s)[^\\s\"',;)}\\]]+");
    private static final Pattern PEM = Pattern.compile("-----BEGIN [A-Z ]+-----[\\s\\S]*?(?:-----END [A-Z ]+-----|$)");
    private static final Pattern PEM_BASE64 = Pattern.compile("LS0tLS1CRUdJTi[A-Za-z0-9+/=]*");
    private static final Pattern OBJECT_CONTENT = Pattern.compile("\"(?:data|stringData|spec)\"\\s*:");

    private Redaction() {
    }

    /** {@code text} with credentials masked, object contents cut and at most 200 characters; "" for null. */
    public static String of(String text) {
        if (text == null) {
            return "";
        }
        String safe = PEM.matcher(text).replaceAll(MASK);
        safe = PEM_BASE64.matcher(safe).replaceAll(MASK);
        safe = SCHEME.matcher(safe).replaceAll("$1$2" + Matcher.quoteReplacement(MASK));
        safe = FIELD.matcher(safe).replaceAll("$1$2" + Matcher.quoteReplacement(MASK));
        Matcher content = OBJECT_CONTENT.matcher(safe);
        if (content.find()) {
            safe = safe.substring(0, content.start()) + "…";
        }
        return safe.length() <= MAX_LENGTH ? safe : safe.substring(0, MAX_LENGTH) + "…";
    }
}
