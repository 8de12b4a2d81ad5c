package dev.watchkeeper.internal.webhook;

import dev.watchkeeper.internal.resource.ResourceType;
import dev.watchkeeper.webhook.FailurePolicy;
import dev.watchkeeper.webhook.Operation;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * One webhook as declared: what the API server sends it and how it registers, with no code attached.
 *
 * @param name            its name in the configuration, a DNS name of at least three labels
 * @param kind            validating or mutating
 * @param type            the objects' resource (its plural is what the rule names)
 * @param operations      the operations it is called for
 * @param failurePolicy   what happens when it cannot answer in time
 * @param timeoutSeconds  how long the API server waits, 1 to 30
 * @param matchConditions CEL conditions by name, in order
 */
public record WebhookDefinition(String name, WebhookKind kind, ResourceType<?> type, List<Operation> operations,
        FailurePolicy failurePolicy, int timeoutSeconds, Map<String, String> matchConditions) {

    /** Lowercase DNS labels, at least three (the API server's rule for webhook names). */
    private static final Pattern NAME =
            Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?){2,}");
    /** What the starter keeps of the API server's wait for itself: the answer must travel back in time. */
    static final Duration ANSWER_MARGIN = Duration.ofMillis(300);

    public WebhookDefinition {
        if (!NAME.matcher(name).matches() || name.length() > 253) {
            throw new IllegalArgumentException("the webhook name '" + name + "' must be a lowercase DNS name of at"
                    + " least three labels, e.g. check-widgets.example.com");
        }
        if (timeoutSeconds < 1 || timeoutSeconds > 30) {
            throw new IllegalArgumentException("timeoutSeconds must be 1 to 30 (the API server's range), not "
                    + timeoutSeconds);
        }
        if (operations.isEmpty()) {
            throw new IllegalArgumentException("operations must name at least one operation");
        }
        operations = List.copyOf(operations);
        matchConditions = Collections.unmodifiableMap(new LinkedHashMap<>(matchConditions));
    }

    /** Where the webhook server serves it: {@code /validate/<name>} or {@code /mutate/<name>}. */
    public String path() {
        return kind.pathPrefix() + name;
    }

    /** How long the method may run: the API server's wait less the time the answer needs to travel back. */
    public Duration methodTimeout() {
        return Duration.ofSeconds(timeoutSeconds).minus(ANSWER_MARGIN);
    }
}
