package dev.watchkeeper.internal.webhook;

import com.google.gson.Gson;
import io.kubernetes.client.openapi.ApiClient;
import java.net.InetSocketAddress;
import java.time.Clock;
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
 * from the next handshake on and registers again, so a changed CA bundle is taken up and a registration someone
 * else changed is put back.
 *
 * <p>The service is read by the actuator endpoint and health without taking its lock, which {@link #refresh()} holds
 * through API calls: what they read is volatile.
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
    private final Clock clock;
    private volatile ServingKeyManager keys;
    private volatile WebhookServer server;
    private volatile boolean serving;
    private volatile Rotations rotations = new Rotations(0, null);
    /** The CA bundle the webhooks were last registered with; {@code null} before. */
    private byte[] registeredBundle;

    /**
     * @param conversions            the multi-version resources whose ConversionReviews it answers
     * @param registration           {@code null} when the configurations are registered by someone else
     * @param conversionRegistration {@code null} when the CRDs' conversions are registered by someone else
     * @param threads                runs the exchanges and the methods; closed with the service
     * @param clock                  the time of a rotation, and what an expired certificate is measured against
     */
    public WebhookService(ApiClient client, List<DeclaredWebhook> webhooks, List<ResourceVersions> conversions,
            CertificateSource certificates, WebhookConfigurations registration, CrdConversions conversionRegistration,
            InetSocketAddress address, ExecutorService threads, Clock clock) {
        this.client = client;
        this.webhooks = List.copyOf(webhooks);
        this.conversions = List.copyOf(conversions);
        this.certificates = certificates;
        this.registration = registration;
        this.conversionRegistration = conversionRegistration;
        this.address = address;
        this.threads = threads;
        this.clock = clock;
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
            endpoints.put(WebhookClientConfig.CONVERSION_PATH,
                    new ConversionHandler(conversions, gson, threads)::handle);
        }
        server = WebhookServer.start(address, endpoints, keys, threads);
        serving = true;
        log.info("serving {} webhook(s) and the conversion of {} on port {} with the certificate from {}, valid"
                + " until {}", webhooks.size(), conversions.stream().map(ResourceVersions::crdName).toList(),
                server.port(), certificates.describe(), certificate.notAfter());
        register(certificate, true);
    }

    /**
     * Takes up a renewed or changed certificate. When its CA bundle changed, the webhooks are registered with the
     * new bundle first, and a changed certificate is served only from the next refresh on: the API server takes
     * the bundle up from its informer moments after the write, and until then refuses a certificate of a new CA (a
     * refresh late for the whole overlap finds both at once). Each refresh registers again, even with the same
     * bundle: a configuration overwritten by someone else (a manifest applied again) would otherwise trust only an
     * old CA once a new one's certificate is served. A registration that fails leaves the old certificate served,
     * and the next refresh tries again.
     */
    public synchronized void refresh() throws Exception {
        ServingCertificate certificate = certificates.current();
        boolean registers = registration != null || conversionRegistration != null;
        boolean registered = registers && !Arrays.equals(certificate.caBundle(), registeredBundle);
        if (registers) {
            register(certificate, registered); // every check: a registration someone else changed is put back
        }
        ServingCertificate served = keys.current();
        if (certificate == served) {
            return;
        }
        boolean newChain = !certificate.chain().equals(served.chain());
        if (newChain && registered) {
            log.info("registered a new CA bundle; the certificate from {} valid until {} is served from the next"
                    + " check on, once the API server trusts it", certificates.describe(), certificate.notAfter());
            return;
        }
        keys.serve(certificate);
        if (newChain) {
            rotations = new Rotations(rotations.count() + 1, clock.instant());
            log.info("serving the webhooks' new certificate from {}, valid until {}", certificates.describe(),
                    certificate.notAfter());
        }
    }

    /**
     * Applies the configurations and conversions with {@code certificate}'s CA bundle (server-side apply, forced: what
     * someone else changed in the fields this application owns is put back); {@code changed}: logged at INFO, as the
     * bundle is new, else at DEBUG.
     */
    private void register(ServingCertificate certificate, boolean changed) throws Exception {
        if (registration != null && !webhooks.isEmpty()) {
            List<String> applied = registration.apply(client, definitions(), certificate.caBundle());
            if (changed) {
                log.info("registered the webhooks {}", applied);
            } else {
                log.debug("registered the webhooks {} again", applied);
            }
        }
        if (conversionRegistration != null && !conversions.isEmpty()) {
            List<String> applied = conversionRegistration.apply(client, conversions, certificate.caBundle());
            if (changed) {
                log.info("registered the conversion webhook in the CRDs {}", applied);
            } else {
                log.debug("registered the conversion webhook in the CRDs {} again", applied);
            }
        }
        if (registration != null || conversionRegistration != null) {
            registeredBundle = certificate.caBundle();
        }
    }

    public List<WebhookDefinition> definitions() {
        return webhooks.stream().map(DeclaredWebhook::definition).toList();
    }

    /** The multi-version resources whose ConversionReviews it answers ({@link WebhookClientConfig#CONVERSION_PATH}). */
    public List<ResourceVersions> conversions() {
        return conversions;
    }

    /** The port the server listens on; only once started. */
    public int port() {
        return server.port();
    }

    /** When the certificate being served expires; {@code null} before start. */
    public Instant certificateNotAfter() {
        ServingKeyManager served = keys;
        return served == null ? null : served.current().notAfter();
    }

    /** Whether the certificate being served has expired, so the API server refuses every call. */
    public boolean certificateExpired() {
        Instant notAfter = certificateNotAfter();
        return notAfter != null && !clock.instant().isBefore(notAfter);
    }

    /** Whether the server is up: started and not closed. */
    public boolean serving() {
        return serving;
    }

    /** The new serving certificates taken up since start. */
    public Rotations rotations() {
        return rotations;
    }

    /** Where the certificate comes from. */
    public String certificateSource() {
        return certificates.describe();
    }

    @Override
    public synchronized void close() {
        serving = false;
        if (server != null) {
            server.close();
        }
        threads.shutdownNow();
    }

    /**
     * The times a new serving certificate (a renewal, or one from a new CA) was served since start.
     *
     * @param count how many
     * @param last  when the last one was, {@code null} before the first
     */
    public record Rotations(int count, Instant last) {
    }
}
