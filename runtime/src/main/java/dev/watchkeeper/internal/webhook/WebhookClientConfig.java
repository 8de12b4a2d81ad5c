package dev.watchkeeper.internal.webhook;

import dev.watchkeeper.crd.CustomResourceDefinitions;
import io.kubernetes.client.openapi.models.AdmissionregistrationV1ServiceReference;
import io.kubernetes.client.openapi.models.ApiextensionsV1ServiceReference;
import io.kubernetes.client.openapi.models.ApiextensionsV1WebhookClientConfig;
import io.kubernetes.client.openapi.models.AdmissionregistrationV1WebhookClientConfig;

/** How the API server reaches the webhook server: a URL (out of the cluster, tests) or a Service in the cluster. */
public sealed interface WebhookClientConfig {

    /** Where the webhook server answers the ConversionReviews of every multi-version resource. */
    String CONVERSION_PATH = CustomResourceDefinitions.CONVERSION_PATH;

    /** The client config of the webhook at {@code path}, trusting {@code caBundle}. */
    AdmissionregistrationV1WebhookClientConfig of(String path, byte[] caBundle);

    /** A CRD's client config of the conversion webhook, trusting {@code caBundle} ({@code null}: not known yet). */
    ApiextensionsV1WebhookClientConfig conversion(byte[] caBundle);

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

        @Override
        public ApiextensionsV1WebhookClientConfig conversion(byte[] caBundle) {
            return new ApiextensionsV1WebhookClientConfig().url(base + CONVERSION_PATH).caBundle(caBundle);
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

        @Override
        public ApiextensionsV1WebhookClientConfig conversion(byte[] caBundle) {
            return new ApiextensionsV1WebhookClientConfig().caBundle(caBundle).service(
                    new ApiextensionsV1ServiceReference().name(name).namespace(namespace).port(port)
                            .path(CONVERSION_PATH));
        }
    }
}
