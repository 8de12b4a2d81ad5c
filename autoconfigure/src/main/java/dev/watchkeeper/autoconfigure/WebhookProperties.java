package dev.watchkeeper.autoconfigure;

import java.nio.file.Path;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The HTTPS server of the application's {@code @ValidatingWebhook} and {@code @MutatingWebhook} methods and of the
 * conversion of its multi-version resources ({@code watchkeeper.webhooks.*}), its certificate and its registration.
 * Nothing is served when the application declares no webhook and uses no resource with several versions.
 *
 * <pre>
 * watchkeeper.webhooks.service.name=my-operator-webhooks
 * watchkeeper.webhooks.register=true
 * </pre>
 *
 * @param enabled           Serve the application's webhook methods and the conversion of its multi-version resources
 * @param port              The webhook server's own port (not the application's web server, so the API server reaches
 *                          nothing else)
 * @param address           The address the webhook server binds
 * @param url               How the API server reaches the server from outside the cluster, {@code https://host:port}
 *                          (tests, development); each webhook's path is added to it
 * @param service           How the API server reaches the server in the cluster: a Service routing to {@code port}
 * @param certificateDir    A directory with {@code tls.crt}, {@code tls.key} and optionally {@code ca.crt} (as
 *                          cert-manager mounts a Secret), read again when they change; unset = the starter makes a CA
 *                          and a certificate and keeps them in {@code certificate-secret}
 * @param certificateSecret The Secret the starter keeps its CA and serving certificate in, shared by every replica,
 *                          in the service's namespace (else the pod's, else {@code default}); unset =
 *                          {@code <spring.application.name>-webhook-certificate}
 * @param register          Apply the ValidatingWebhookConfiguration and MutatingWebhookConfiguration named after the
 *                          application, and the conversion of its multi-version CRDs, with the CA bundle, at start-up
 *                          (needs cluster-wide rights on them); unset = on when {@code url} is set (from outside the
 *                          cluster nothing else can point the API server at this server), else off, as a
 *                          configuration left behind by a stopped application can refuse every write it matches
 */
@ConfigurationProperties("watchkeeper.webhooks")
public record WebhookProperties(@DefaultValue("true") boolean enabled, @DefaultValue("9443") int port,
        @DefaultValue("0.0.0.0") String address, String url, @DefaultValue Service service, Path certificateDir,
        String certificateSecret, Boolean register) {

    /** Whether the webhooks and conversions are registered: {@code register}, or when unset whether {@code url} is. */
    public boolean registers() {
        return register != null ? register : url != null;
    }

    /**
     * The Service in front of the webhook server.
     *
     * @param name      The Service's name; unset = no Service (then {@code url} must say how the API server calls)
     * @param namespace Its namespace; unset = the pod's, else {@code default}
     * @param port      The Service's port that routes to the webhook server
     */
    public record Service(String name, String namespace, @DefaultValue("443") int port) {
    }
}
