package dev.watchkeeper.internal.webhook;

import io.kubernetes.client.openapi.models.AdmissionregistrationV1ServiceReference;
import io.kubernetes.client.openapi.models.AdmissionregistrationV1WebhookClientConfig;

/** How the API server reaches the webhook server: a URL (out of the cluster, tests) or a Service in the cluster. */
public sealed interface WebhookClientConfig {

    /** The client config of the webhook at {@code path}, trusting {@code caBundle}. */
    AdmissionregistrationV1WebhookClientConfig of(String path, byte[] caBundle);

    /** {@code https://host:port}, with no path: each webhook's path is added to it. */
    record Url(String base) implements WebhookClientConfig {

        public Url {
            if (!base.startsWith("https://")) {
                throw new IllegalArgumentException("the webhooks' URL must start with https://, not '" + base + "'");
            }
            base = base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
        }

        @Override
        public AdmissionregistrationV1WebhookClientConfig of(String path, byte[] caBundle) {
            return new AdmissionregistrationV1WebhookClientConfig().url(base + path).caBundle(caBundle);
        }
    }

    /** A Service that routes {@code port} to the webhook server's port. */
    record Service(String name, String namespace, int port) implements WebhookClientConfig {

        @Override
        public AdmissionregistrationV1WebhookClientConfig of(String path, byte[] caBundle) {
            return new AdmissionregistrationV1WebhookClientConfig().caBundle(caBundle).service(
                    new AdmissionregistrationV1ServiceReference().name(name).namespace(namespace).port(port)
                            .path(path));
        }
    }
}
