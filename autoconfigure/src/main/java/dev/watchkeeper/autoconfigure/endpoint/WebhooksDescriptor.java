package dev.watchkeeper.autoconfigure.endpoint;

import dev.watchkeeper.internal.webhook.ResourceVersions;
import dev.watchkeeper.internal.webhook.WebhookClientConfig;
import dev.watchkeeper.internal.webhook.WebhookDefinition;
import dev.watchkeeper.internal.webhook.WebhookService;
import dev.watchkeeper.webhook.Operation;
import java.time.Instant;
import java.util.List;

/**
 * The application's admission webhooks and conversions: where they are served and with which certificate, until when.
 *
 * @param port                the webhook server's port
 * @param certificateSource   where its certificate comes from
 * @param certificateNotAfter when the certificate being served expires
 * @param rotations           how many new certificates (renewals, or from a new CA) were served since start
 * @param lastRotationAt      when the last one was; {@code null} before the first
 * @param webhooks            every admission webhook
 * @param conversions         every resource whose versions the server converts
 */
public record WebhooksDescriptor(int port, String certificateSource, Instant certificateNotAfter, int rotations,
        Instant lastRotationAt, List<WebhookDescriptor> webhooks, List<ConversionDescriptor> conversions) {

    static WebhooksDescriptor of(WebhookService service) {
        WebhookService.Rotations rotations = service.rotations();
        return new WebhooksDescriptor(service.port(), service.certificateSource(), service.certificateNotAfter(),
                rotations.count(), rotations.last(), service.definitions().stream().map(WebhookDescriptor::of)
                        .toList(), service.conversions().stream().map(ConversionDescriptor::of).toList());
    }

    /**
     * One webhook.
     *
     * @param name           its name in the configuration
     * @param kind           {@code VALIDATING} or {@code MUTATING}
     * @param resource       the resource it is called for, {@code group/version/plural}
     * @param operations     the operations it is called for
     * @param failurePolicy  {@code Fail} or {@code Ignore}
     * @param timeoutSeconds how long the API server waits for it
     * @param path           its path on the webhook server
     */
    public record WebhookDescriptor(String name, String kind, String resource, List<Operation> operations,
            String failurePolicy, int timeoutSeconds, String path) {

        static WebhookDescriptor of(WebhookDefinition definition) {
            return new WebhookDescriptor(definition.name(), definition.kind().name(),
                    definition.type().apiVersion() + "/" + definition.type().likelyPlural(), definition.operations(),
                    definition.failurePolicy().wireName(), definition.timeoutSeconds(), definition.path());
        }
    }

    /**
     * One conversion.
     *
     * @param crd            the CustomResourceDefinition's name, {@code <plural>.<group>}
     * @param storageVersion the version stored (the hub, which the others convert through)
     * @param versions       every version the server converts from and to, the storage version first
     * @param path           its path on the webhook server
     */
    public record ConversionDescriptor(String crd, String storageVersion, List<String> versions, String path) {

        static ConversionDescriptor of(ResourceVersions resource) {
            List<String> versions = List.copyOf(resource.versions().keySet());
            return new ConversionDescriptor(resource.crdName(), versions.get(0), versions,
                    WebhookClientConfig.CONVERSION_PATH);
        }
    }
}
