package dev.watchkeeper.webhook;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What a {@link ValidatingWebhook} method answers: admit or refuse with a message the client is shown, and
 * warnings the client shows either way ({@code kubectl} prints them as {@code Warning: ...}).
 *
 * <pre>{@code
 * return replicas > 10 ? AdmissionVerdict.deny("at most 10 replicas, not " + replicas)
 *         : AdmissionVerdict.allow();
 * }</pre>
 *
 * @param allowed  whether the request is admitted
 * @param message  why it is refused; {@code null} when admitted
 * @param warnings shown to the client, admitted or not
 */
public record AdmissionVerdict(boolean allowed, String message, List<String> warnings) {

    public AdmissionVerdict {
        if (!allowed && (message == null || message.isBlank())) {
            throw new IllegalArgumentException("a refusal needs a message that says why");
        }
        warnings = List.copyOf(warnings);
    }

    /** Admitted. */
    public static AdmissionVerdict allow() {
        return new AdmissionVerdict(true, null, List.of());
    }

    /** Refused, with the reason the client is shown. */
    public static AdmissionVerdict deny(String message) {
        return new AdmissionVerdict(false, Objects.requireNonNull(message, "message"), List.of());
    }

    /** This verdict with one more warning. */
    public AdmissionVerdict withWarning(String warning) {
        List<String> more = new ArrayList<>(warnings);
        more.add(Objects.requireNonNull(warning, "warning"));
        return new AdmissionVerdict(allowed, message, more);
    }
}
