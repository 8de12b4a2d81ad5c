package dev.watchkeeper.internal.webhook;

/** A webhook as found on a bean: its definition and the code that answers it. */
public record DeclaredWebhook(WebhookDefinition definition, AdmissionMethod method) {
}
