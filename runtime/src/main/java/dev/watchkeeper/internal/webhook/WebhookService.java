package dev.watchkeeper.internal.webhook;

import com.google.gson.Gson;
import io.kubernetes.client.openapi.ApiClient;
import java.net.InetSocketAddress;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The application's webhooks at run time: gets the serving certificate from its {@link CertificateSource}, starts
 * the {@link WebhookServer} with the admission webhooks and the conversion of the multi-version resources, then
 * (with a {@link WebhookConfigurations} and {@link CrdConversions}) registers them with the API server trusting that
 * certificate's CA. {@link #refresh()}, called periodically, serves a renewed or changed certificate
 * from the next handshake on and registers again when the CA bundle changed.
 */
public final class WebhookService implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(WebhookService.class);

    private final ApiClient client;
    private final List<DeclaredWebhook> webhooks;
    private final List<ResourceVersions> conversions;
    private final CertificateSource certificates;
    private final WebhookConfigurations registration;
    private final CrdConversions conversionRegistration;
    private final InetSocketAddress address;
    private final ExecutorService threads;
    private ServingKeyManager keys;
    private WebhookServer server;
    /** The CA bundle the webhooks were last registered with; {@code null} before. */
    private byte[] registeredBundle;

    /**
     * @param conversions            the multi-version resources whose ConversionReviews it answers
     * @param registration           {@code null} when the configurations are registered by someone else
     * @param conversionRegistration {@code null} when the CRDs' conversions are registered by someone else
     * @param threads                runs the exchanges and the methods; closed with the service
     */
    public WebhookService(ApiClient client, List<DeclaredWebhook> webhooks, List<ResourceVersions> conversions,
            CertificateSource certificates, WebhookConfigurations registration, CrdConversions conversionRegistration,
            InetSocketAddress address, ExecutorService threads) {
        this.client = client;
        this.webhooks = List.copyOf(webhooks);
        this.conversions = List.copyOf(conversions);
        this.certificates = certificates;
        this.registration = registration;
        this.conversionRegistration = conversionRegistration;
        this.address = address;
        this.threads = threads;
    }

    /** Serves every webhook, then registers them if asked to. */
    public synchronized void start() throws Exception {
        ServingCertificate certificate = certificates.current();
        keys = new ServingKeyManager(certificate);
        Gson gson = client.getJSON().getGson();
        Map<String, WebhookServer.Endpoint> endpoints = new LinkedHashMap<>();
        for (DeclaredWebhook webhook : webhooks) {
            endpoints.put(webhook.definition().path(), WebhookServer.admission(
                    new AdmissionHandler(webhook.definition(), webhook.method(), gson, threads)));
        }
        if (!conversions.isEmpty()) {
            endpoints.put(WebhookClientConfig.CONVERSION_PATH, new ConversionHandler(conversions, gson)::handle);
        }
        server = WebhookServer.start(address, endpoints, keys, threads);
        log.info("serving {} webhook(s) and the conversion of {} on port {} with the certificate from {}, valid"
                + " until {}", webhooks.size(), conversions.stream().map(ResourceVersions::crdName).toList(),
                server.port(), certificates.describe(), certificate.notAfter());
        register(certificate);
    }

    /**
     * Takes up a renewed or changed certificate. When its CA bundle changed, the webhooks are registered with the
     * new bundle first, so the API server trusts the new certificate by the time it is served; a registration that
     * fails leaves the old certificate served, and the next refresh tries again.
     */
    public synchronized void refresh() throws Exception {
        ServingCertificate certificate = certificates.current();
        if ((registration != null || conversionRegistration != null)
                && !Arrays.equals(certificate.caBundle(), registeredBundle)) {
            register(certificate);
        }
        if (certificate != keys.current()) {
            keys.serve(certificate);
            log.info("serving the webhooks' new certificate from {}, valid until {}", certificates.describe(),
                    certificate.notAfter());
        }
    }

    private void register(ServingCertificate certificate) throws Exception {
        if (registration != null && !webhooks.isEmpty()) {
            log.info("registered the webhooks {}", registration.apply(client, definitions(), certificate.caBundle()));
        }
        if (conversionRegistration != null && !conversions.isEmpty()) {
            log.info("registered the conversion webhook in the CRDs {}",
                    conversionRegistration.apply(client, conversions, certificate.caBundle()));
        }
        if (registration != null || conversionRegistration != null) {
            registeredBundle = certificate.caBundle();
        }
    }

    public List<WebhookDefinition> definitions() {
        return webhooks.stream().map(DeclaredWebhook::definition).toList();
    }

    /** The port the server listens on; only once started. */
    public synchronized int port() {
        return server.port();
    }

    /** When the certificate being served expires; {@code null} before start. */
    public synchronized Instant certificateNotAfter() {
        return keys == null ? null : keys.current().notAfter();
    }

    /** Where the certificate comes from. */
    public String certificateSource() {
        return certificates.describe();
    }

    @Override
    public synchronized void close() {
        if (server != null) {
            server.close();
        }
        threads.shutdownNow();
    }
}
