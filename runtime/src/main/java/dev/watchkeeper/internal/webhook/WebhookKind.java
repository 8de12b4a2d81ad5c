package dev.watchkeeper.internal.webhook;

/** Whether a webhook only decides ({@code VALIDATING}) or may also change the object ({@code MUTATING}). */
public enum WebhookKind {
    VALIDATING("/validate/"), MUTATING("/mutate/");

    private final String pathPrefix;

    WebhookKind(String pathPrefix) {
        this.pathPrefix = pathPrefix;
    }

    String pathPrefix() {
        return pathPrefix;
    }
}
