package dev.watchkeeper.internal.webhook;

import com.google.gson.Gson;
import io.kubernetes.client.openapi.ApiClient;
import java.net.InetSocketAddress;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The application's webhooks at run time: gets the serving certificate from its {@link CertificateSource}, starts
 * the {@link WebhookServer}, then (with a {@link WebhookConfigurations}) registers the webhooks with the API server
 * trusting that certificate's CA. {@link #refresh()}, called periodically, serves a renewed or changed certificate
 * from the next handshake on and registers again when the CA bundle changed.
 */
public final class WebhookService implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(WebhookService.class);

    private final ApiClient client;
    private final List<DeclaredWebhook> webhooks;
    private final CertificateSource certificates;
    private final WebhookConfigurations registration;
    private final InetSocketAddress address;
    private final ExecutorService threads;
    private ServingKeyManager keys;
    private WebhookServer server;
    /** The CA bundle the webhooks were last registered with; {@code null} before. */
    private byte[] registeredBundle;

    /**
     * @param registration {@code null} when the configurations are registered by someone else
     * @param threads      runs the exchanges and the methods; closed with the service
     */
    public WebhookService(ApiClient client, List<DeclaredWebhook> webhooks, CertificateSource certificates,
            WebhookConfigurations registration, InetSocketAddress address, ExecutorService threads) {
        this.client = client;
        this.webhooks = List.copyOf(webhooks);
        this.certificates = certificates;
        this.registration = registration;
        this.address = address;
        this.threads = threads;
    }

    /** Serves every webhook, then registers them if asked to. */
    public synchronized void start() throws Exception {
        ServingCertificate certificate = certificates.current();
        keys = new ServingKeyManager(certificate);
        Gson gson = client.getJSON().getGson();
        server = WebhookServer.start(address, webhooks.stream()
                .map(webhook -> new AdmissionHandler(webhook.definition(), webhook.method(), gson, threads))
                .toList(), keys, threads);
        log.info("serving {} webhook(s) on port {} with the certificate from {}, valid until {}", webhooks.size(),
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
        if (registration != null && !Arrays.equals(certificate.caBundle(), registeredBundle)) {
            register(certificate);
        }
        if (certificate != keys.current()) {
            keys.serve(certificate);
            log.info("serving the webhooks' new certificate from {}, valid until {}", certificates.describe(),
                    certificate.notAfter());
        }
    }

    private void register(ServingCertificate certificate) throws Exception {
        if (registration != null) {
            List<String> applied = registration.apply(client, definitions(), certificate.caBundle());
            registeredBundle = certificate.caBundle();
            log.info("registered the webhooks {}", applied);
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
