package dev.watchkeeper.autoconfigure;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.watchkeeper.internal.annotation.WebhookAnnotationBeanPostProcessor;
import dev.watchkeeper.internal.concurrent.DaemonThreads;
import dev.watchkeeper.internal.webhook.DeclaredWebhook;
import dev.watchkeeper.internal.webhook.SecretCertificates;
import dev.watchkeeper.internal.webhook.WebhookClientConfig;
import dev.watchkeeper.internal.webhook.WebhookConfigurations;
import dev.watchkeeper.internal.webhook.WebhookDefinition;
import dev.watchkeeper.internal.webhook.WebhookKind;
import dev.watchkeeper.internal.webhook.WebhookService;
import dev.watchkeeper.internal.resource.ResourceType;
import dev.watchkeeper.test.VirtualTime;
import dev.watchkeeper.test.boot.AutoConfigureRealKubeApi;
import dev.watchkeeper.test.controlplane.KubeControlPlane;
import dev.watchkeeper.test.controlplane.TestNamespace;
import dev.watchkeeper.webhook.AdmissionContext;
import dev.watchkeeper.webhook.FailurePolicy;
import dev.watchkeeper.webhook.MatchCondition;
import dev.watchkeeper.webhook.MutatingWebhook;
import dev.watchkeeper.webhook.Operation;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.AdmissionregistrationV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.AdmissionregistrationV1WebhookClientConfig;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1MatchCondition;
import io.kubernetes.client.openapi.models.V1MutatingWebhook;
import io.kubernetes.client.openapi.models.V1MutatingWebhookConfiguration;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1RuleWithOperations;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Certificate rotation while the real kube-apiserver calls the application's webhook on loopback. The clock is
 * virtual, but the API server checks every certificate against the real time, so each certificate the starter
 * issues must be valid now: the Secret is made by the starter itself at virtual times in the past (ten years ago,
 * and eleven months ago), so that its serving certificate falls due for renewal two hours ago and its CA for
 * rotation an hour ago. A second CA rotation cannot be had this way: the new CA is made now, and falls due nine
 * years on, when a certificate it issued would not yet be valid for the API server.
 *
 * <p>The margins are {@link SecretCertificates}': a serving certificate is renewed 30 days before it expires, a CA
 * rotated 365 days before, and a certificate of the new CA served an hour after it joined the bundle.
 */
@AutoConfigureRealKubeApi
@SpringBootTest(classes = WebhookRotationOnControlPlaneTests.App.class, webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = {
                "spring.application.name=" + WebhookRotationOnControlPlaneTests.NAME,
                "watchkeeper.webhooks.register=true",
                "management.endpoints.web.exposure.include=health,watchkeeper",
                "management.endpoint.health.show-details=always"})
@DirtiesContext
class WebhookRotationOnControlPlaneTests {

    static final String NAME = "rotation-it";
    static final String LOAD = "rotation-it.watchkeeper.dev/load";
    static final String MARK = "rotation-it.watchkeeper.dev/admitted";
    static final String PROBE = "rotation-it-probe";
    static final String PROBE_LABEL = "rotation-it.watchkeeper.dev/probe";
    static final String LATE = "rotation-it-late";
    static final String REPAIRED = "rotation-it-repaired";
    static final String SECRET = NAME + "-" + UUID.randomUUID().toString().substring(0, 8);
    static final int PORT = freePort();
    static final int CREATES = 1000;
    static final int CLIENTS = 4;
    static final Instant NOW = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    /** When the seeded serving certificate falls due for renewal (a minute is added: due means "within"). */
    static final Instant RENEWAL_DUE = NOW.minus(Duration.ofHours(2));
    /** When the seeded CA falls due for rotation. */
    static final Instant CA_DUE = NOW.minus(Duration.ofHours(1));
    static final Duration OVERLAP = Duration.ofHours(1);
    static final VirtualTime time = new VirtualTime(NOW.minus(Duration.ofHours(3)));
    static final Set<String> admitted = ConcurrentHashMap.newKeySet();
    private static final Logger log = LoggerFactory.getLogger(WebhookRotationOnControlPlaneTests.class);

    @Autowired
    KubeControlPlane plane;

    @Autowired
    WatchkeeperWebhooks webhooks;

    @LocalServerPort
    int httpPort;

    final AtomicInteger probes = new AtomicInteger();

    @DynamicPropertySource
    static void webhookServer(DynamicPropertyRegistry registry) {
        registry.add("watchkeeper.webhooks.port", () -> PORT);
        registry.add("watchkeeper.webhooks.address", () -> "127.0.0.1");
        registry.add("watchkeeper.webhooks.url", () -> "https://127.0.0.1:" + PORT);
        registry.add("watchkeeper.webhooks.certificate-secret", () -> SECRET);
    }

    @AfterAll
    static void removeWebhooks() throws Exception {
        ApiClient client = KubeControlPlane.shared().apiClient();
        AdmissionregistrationV1Api admission = new AdmissionregistrationV1Api(client);
        CoreV1Api core = new CoreV1Api(client);
        List<Callable<?>> deletes = List.of(
                () -> admission.deleteMutatingWebhookConfiguration(NAME).execute(),
                () -> admission.deleteMutatingWebhookConfiguration(PROBE).execute(),
                () -> admission.deleteMutatingWebhookConfiguration(LATE).execute(),
                () -> admission.deleteMutatingWebhookConfiguration(REPAIRED).execute(),
                () -> core.deleteNamespacedSecret(REPAIRED, "default").execute(),
                () -> core.deleteNamespacedSecret(SECRET, "default").execute(),
                () -> core.deleteNamespacedSecret(LATE, "default").execute());
        for (Callable<?> delete : deletes) {
            try {
                delete.call();
            } catch (ApiException e) {
                if (e.getCode() != 404) { // a test that failed before making it
                    throw e;
                }
            }
        }
    }

    @Test
    void aThousandCreatesGoThroughTheWebhookWhileItsCertificateIsRenewedAndItsCaRotated(TestNamespace namespace)
            throws Exception {
        CoreV1Api core = new CoreV1Api(plane.apiClient());
        WebhookService service = webhooks.service().orElseThrow();
        awaitTakenUp(core, namespace.name()); // the registration at start
        List<X509Certificate> firstBundle = registeredBundle(NAME);
        X509Certificate first = served(PORT, firstBundle);

        Semaphore permits = new Semaphore(0);
        AtomicInteger next = new AtomicInteger();
        AtomicInteger created = new AtomicInteger();
        Queue<String> failures = new ConcurrentLinkedQueue<>();
        ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
        Instant started = Instant.now();
        try {
            for (int c = 0; c < CLIENTS; c++) {
                clients.submit((Callable<Void>) () -> {
                    for (int i = next.getAndIncrement(); i < CREATES; i = next.getAndIncrement()) {
                        permits.acquire();
                        try {
                            core.createNamespacedConfigMap(namespace.name(), loadObject(namespace.name(), i))
                                    .execute();
                            created.incrementAndGet();
                        } catch (ApiException e) {
                            failures.add("load-" + i + ": HTTP " + e.getCode() + " " + e.getResponseBody());
                        }
                    }
                    return null;
                });
            }
            // each step is taken while the creates released just before it are in flight
            permits.release(250);
            awaitFinished(created, failures, 100);
            permits.release(250);
            time.advance(Duration.between(time.clock().instant(), RENEWAL_DUE.plus(Duration.ofMinutes(1))));
            service.refresh();
            X509Certificate renewed = served(PORT, registeredBundle(NAME));
            awaitApiServerAccepts(core, namespace.name());

            awaitFinished(created, failures, 350);
            permits.release(250);
            time.advance(Duration.between(time.clock().instant(), CA_DUE.plus(Duration.ofMinutes(1))));
            service.refresh();
            awaitTakenUp(core, namespace.name());
            List<X509Certificate> rotatingBundle = registeredBundle(NAME);
            X509Certificate duringOverlap = served(PORT, rotatingBundle);

            time.advance(OVERLAP);
            service.refresh();
            X509Certificate rotated = served(PORT, registeredBundle(NAME));
            awaitApiServerAccepts(core, namespace.name());
            permits.release(CREATES - 750); // the rest through the new CA's certificate alone
            awaitFinished(created, failures, CREATES);
            Duration took = Duration.between(started, Instant.now());
            log.info("rotation under load: {} creates, {} failed, {} rotations, in {} ms", created.get(),
                    failures.size(), service.rotations().count(), took.toMillis());

            assertThat(failures).as("failed admission calls").isEmpty();
            assertThat(created).hasValue(CREATES);
            List<V1ConfigMap> stored = core.listNamespacedConfigMap(namespace.name()).labelSelector(LOAD).execute()
                    .getItems();
            assertThat(stored).hasSize(CREATES)
                    .allSatisfy(configMap -> assertThat(configMap.getMetadata().getLabels())
                            .containsEntry(MARK, "yes"));
            assertThat(admitted).hasSize(CREATES);

            X509Certificate oldCa = firstBundle.get(0);
            assertThat(firstBundle).hasSize(1);
            assertThat(rotatingBundle).hasSize(2).endsWith(oldCa);
            X509Certificate newCa = rotatingBundle.get(0);
            assertThat(newCa.getSerialNumber()).isNotEqualTo(oldCa.getSerialNumber());
            assertThat(newCa.getPublicKey()).isNotEqualTo(oldCa.getPublicKey());
            assertThat(registeredBundle(NAME)).as("the old CA stays until it expires").isEqualTo(rotatingBundle);

            assertThat(List.of(first, renewed, rotated)).extracting(X509Certificate::getSerialNumber)
                    .doesNotHaveDuplicates();
            assertThat(duringOverlap).as("the overlap serves the renewed certificate").isEqualTo(renewed);
            renewed.verify(oldCa.getPublicKey());
            rotated.verify(newCa.getPublicKey());
            assertThat(service.rotations().count()).isEqualTo(2);
            assertThat(service.rotations().last()).isEqualTo(time.clock().instant());

            assertRotationsShownOverHttp(rotated, service.rotations().last());
        } finally {
            clients.shutdownNow();
        }
    }

    /**
     * A refresh that comes only after the overlap (a replica that was paused, or could not register for the hour)
     * finds the new CA's certificate and the longer bundle at once: it registers the bundle, and serves the new
     * certificate only at the next refresh, by when the API server trusts it.
     */
    @Test
    void aRefreshLateForTheWholeOverlapRegistersTheBundleFirst_andServesTheNewCertificateAtTheNextRefresh()
            throws Exception {
        ApiClient client = plane.apiClient();
        seed(client, LATE);
        VirtualTime late = new VirtualTime(NOW.minus(Duration.ofHours(3)));
        int port = freePort();
        WebhookDefinition never = new WebhookDefinition("late.rotation-it.watchkeeper.dev", WebhookKind.MUTATING,
                ResourceType.of(V1ConfigMap.class), List.of(Operation.CREATE), FailurePolicy.FAIL, 10,
                Map.of("never", "false"));
        try (WebhookService service = new WebhookService(client,
                List.of(new DeclaredWebhook(never, (object, old, context) -> null)), List.of(),
                certificates(client, LATE, late.clock()),
                new WebhookConfigurations(LATE, new WebhookClientConfig.Url("https://127.0.0.1:" + port)), null,
                new InetSocketAddress("127.0.0.1", port), Executors.newCachedThreadPool(), late.clock())) {
            service.start();
            List<X509Certificate> oldBundle = registeredBundle(LATE);
            X509Certificate old = served(port, oldBundle);
            // another replica adds the new CA to the bundle, and this one's next refresh is past the overlap
            certificates(client, LATE, Clock.fixed(CA_DUE.plus(Duration.ofMinutes(1)), ZoneOffset.UTC)).current();
            late.advance(Duration.between(late.clock().instant(), CA_DUE.plus(Duration.ofMinutes(1)).plus(OVERLAP)));

            service.refresh();

            List<X509Certificate> newBundle = registeredBundle(LATE);
            assertThat(newBundle).hasSize(2).endsWith(oldBundle.get(0));
            assertThat(served(port, oldBundle)).as("served while the API server may trust the old bundle alone")
                    .isEqualTo(old);
            assertThat(service.rotations().count()).isZero();

            service.refresh();

            X509Certificate rotated = served(port, newBundle);
            rotated.verify(newBundle.get(0).getPublicKey());
            assertThat(service.rotations().count()).isEqualTo(1);
        }
    }

    /**
     * A registration someone else changed (a manifest applied again with an old or empty CA bundle) is put back by
     * the next refresh, though this replica's bundle did not change: otherwise the API server would refuse the
     * webhook's certificate once it is issued by a new CA.
     */
    @Test
    void aRegistrationSomeoneElseChangedIsPutBackByTheNextRefresh() throws Exception {
        ApiClient client = plane.apiClient();
        int port = freePort();
        WebhookDefinition never = new WebhookDefinition("repaired.rotation-it.watchkeeper.dev", WebhookKind.MUTATING,
                ResourceType.of(V1ConfigMap.class), List.of(Operation.CREATE), FailurePolicy.FAIL, 10,
                Map.of("never", "false"));
        try (WebhookService service = new WebhookService(client,
                List.of(new DeclaredWebhook(never, (object, old, context) -> null)), List.of(),
                certificates(client, REPAIRED, Clock.systemUTC()),
                new WebhookConfigurations(REPAIRED, new WebhookClientConfig.Url("https://127.0.0.1:" + port)), null,
                new InetSocketAddress("127.0.0.1", port), Executors.newCachedThreadPool(), Clock.systemUTC())) {
            service.start();
            String registered = new String(caBundle(REPAIRED), UTF_8);
            AdmissionregistrationV1Api admission = new AdmissionregistrationV1Api(client);
            V1MutatingWebhookConfiguration overwritten = admission.readMutatingWebhookConfiguration(REPAIRED)
                    .execute();
            overwritten.getWebhooks().get(0).getClientConfig().setCaBundle("not a CA".getBytes(UTF_8));
            admission.replaceMutatingWebhookConfiguration(REPAIRED, overwritten).execute();
            assertThat(new String(caBundle(REPAIRED), UTF_8)).isEqualTo("not a CA");

            service.refresh();

            assertThat(new String(caBundle(REPAIRED), UTF_8)).isEqualTo(registered);
        }
    }

    private void assertRotationsShownOverHttp(X509Certificate served, Instant lastRotation) throws Exception {
        JsonObject health = getJson("/actuator/health/watchkeeper");
        assertThat(health.get("status").getAsString()).isEqualTo("UP");
        JsonObject webhookHealth = health.getAsJsonObject("details").getAsJsonObject("webhooks");
        assertThat(webhookHealth.get("rotations").getAsInt()).isEqualTo(2);
        assertThat(webhookHealth.get("lastRotationAt").getAsString()).isEqualTo(lastRotation.toString());
        assertThat(Instant.parse(webhookHealth.get("certificateNotAfter").getAsString()))
                .isEqualTo(served.getNotAfter().toInstant());
        assertThat(webhookHealth.has("reason")).isFalse();

        JsonObject endpoint = getJson("/actuator/watchkeeper").getAsJsonObject("webhooks");
        assertThat(endpoint.get("rotations").getAsInt()).isEqualTo(2);
        assertThat(Instant.parse(endpoint.get("lastRotationAt").getAsString())).isEqualTo(lastRotation);
        assertThat(Instant.parse(endpoint.get("certificateNotAfter").getAsString()))
                .isEqualTo(served.getNotAfter().toInstant());
    }

    private JsonObject getJson(String path) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create("http://localhost:" + httpPort + path)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return JsonParser.parseString(response.body()).getAsJsonObject();
    }

    private static void awaitFinished(AtomicInteger created, Queue<String> failures, int count) {
        await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(20))
                .until(() -> created.get() + failures.size() >= count);
    }

    /**
     * Waits until the API server has taken up the application's last registration. Its configuration informer
     * delivers changes in order, so a probe configuration written after that registration and seen in effect (the
     * API server calls the probe's new path, where nothing listens) means the registration is in effect too.
     */
    private void awaitTakenUp(CoreV1Api core, String namespace) throws ApiException {
        String path = "/probe-" + probes.incrementAndGet();
        writeProbe("https://127.0.0.1:1" + path, null);
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50)).untilAsserted(() ->
                assertThatThrownBy(() -> core.createNamespacedConfigMap(namespace, probeObject(namespace))
                        .dryRun("All").execute())
                        .isInstanceOfSatisfying(ApiException.class,
                                e -> assertThat(e.getResponseBody()).contains(path)));
    }

    /**
     * Waits until the API server calls the application's webhook for a configuration of the probe's, trusting the
     * application's registered bundle: a new client of the API server, so a new TLS handshake with the certificate
     * served now (the application's own configuration keeps the connections it opened before the rotation).
     */
    private void awaitApiServerAccepts(CoreV1Api core, String namespace) throws ApiException {
        writeProbe("https://127.0.0.1:" + PORT + "/mutate/mark.rotation-it.watchkeeper.dev", caBundle(NAME));
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50)).ignoreException(ApiException.class)
                .untilAsserted(() -> assertThat(core.createNamespacedConfigMap(namespace, probeObject(namespace))
                        .dryRun("All").execute().getMetadata().getLabels()).containsEntry(MARK, "yes"));
    }

    private void writeProbe(String url, byte[] caBundle) throws ApiException {
        AdmissionregistrationV1Api admission = new AdmissionregistrationV1Api(plane.apiClient());
        V1MutatingWebhookConfiguration probe = new V1MutatingWebhookConfiguration()
                .metadata(new V1ObjectMeta().name(PROBE))
                .webhooks(List.of(new V1MutatingWebhook().name("probe.rotation-it.watchkeeper.dev")
                        .clientConfig(new AdmissionregistrationV1WebhookClientConfig().url(url).caBundle(caBundle))
                        .rules(List.of(new V1RuleWithOperations().apiGroups(List.of("")).apiVersions(List.of("v1"))
                                .resources(List.of("configmaps")).operations(List.of("CREATE"))))
                        .matchConditions(List.of(new V1MatchCondition().name("probe")
                                .expression("has(object.metadata.labels) && '" + PROBE_LABEL
                                        + "' in object.metadata.labels")))
                        .failurePolicy("Fail").sideEffects("None").timeoutSeconds(1)
                        .admissionReviewVersions(List.of("v1"))));
        try {
            probe.getMetadata().resourceVersion(admission.readMutatingWebhookConfiguration(PROBE).execute()
                    .getMetadata().getResourceVersion());
        } catch (ApiException e) {
            if (e.getCode() != 404) {
                throw e;
            }
            admission.createMutatingWebhookConfiguration(probe).execute();
            return;
        }
        admission.replaceMutatingWebhookConfiguration(PROBE, probe).execute();
    }

    private static V1ConfigMap probeObject(String namespace) {
        return new V1ConfigMap().metadata(new V1ObjectMeta().name("probe").namespace(namespace)
                .labels(Map.of(PROBE_LABEL, "yes")));
    }

    /** The caBundle a configuration's (first) mutating webhook is registered with. */
    private List<X509Certificate> registeredBundle(String configuration) throws Exception {
        return CertificateFactory.getInstance("X.509")
                .generateCertificates(new ByteArrayInputStream(caBundle(configuration))).stream()
                .map(X509Certificate.class::cast).toList();
    }

    private byte[] caBundle(String configuration) throws ApiException {
        return new AdmissionregistrationV1Api(plane.apiClient()).readMutatingWebhookConfiguration(configuration)
                .execute().getWebhooks().get(0).getClientConfig().getCaBundle();
    }

    /** The certificate the webhook server serves, by a TLS handshake that trusts {@code bundle} alone. */
    private static X509Certificate served(int port, List<X509Certificate> bundle) throws Exception {
        KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
        trusted.load(null, null);
        for (int i = 0; i < bundle.size(); i++) {
            trusted.setCertificateEntry("ca-" + i, bundle.get(i));
        }
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(trusted);
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(null, trust.getTrustManagers(), null);
        try (SSLSocket socket = (SSLSocket) tls.getSocketFactory().createSocket("127.0.0.1", port)) {
            socket.startHandshake();
            return (X509Certificate) socket.getSession().getPeerCertificates()[0];
        }
    }

    /**
     * The Secret as the starter would have left it: a CA made at a virtual time ten years ago, so that it falls due
     * at {@link #CA_DUE}, and a serving certificate issued again eleven months ago, so that it falls due at
     * {@link #RENEWAL_DUE}.
     */
    static void seed(ApiClient client, String secret) throws Exception {
        Instant caMade = CA_DUE.plus(Duration.ofDays(365)).minus(Duration.ofDays(3650));
        certificates(client, secret, Clock.fixed(caMade, ZoneOffset.UTC)).current();
        Instant servingIssued = RENEWAL_DUE.plus(Duration.ofDays(30)).minus(Duration.ofDays(365));
        certificates(client, secret, Clock.fixed(servingIssued, ZoneOffset.UTC)).current();
    }

    static SecretCertificates certificates(ApiClient client, String secret, Clock clock) {
        return new SecretCertificates(client, "default", secret, List.of(), List.of("127.0.0.1"), clock);
    }

    private static V1ConfigMap loadObject(String namespace, int i) {
        return new V1ConfigMap().metadata(new V1ObjectMeta().name("load-" + i).namespace(namespace)
                .labels(Map.of(LOAD, "yes"))).data(Map.of("i", String.valueOf(i)));
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Auto-configuration, with the lifecycle on the virtual clock over a seeded Secret; no component scan. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {

        @Bean
        Marks marks() {
            return new Marks();
        }

        @Bean
        WatchkeeperWebhooks watchkeeperWebhooks(ApiClient client, WebhookAnnotationBeanPostProcessor found,
                ConfigurableListableBeanFactory beans, WebhookProperties properties, Environment environment)
                throws Exception {
            seed(client, SECRET);
            return new WatchkeeperWebhooks(client, found, beans, properties, environment, DaemonThreads.factory(),
                    time.clock());
        }
    }

    /** Marks every object it admits, and counts them by name. */
    static class Marks {

        @MutatingWebhook(type = V1ConfigMap.class, operations = Operation.CREATE,
                name = "mark.rotation-it.watchkeeper.dev",
                matchConditions = @MatchCondition(name = "load",
                        expression = "has(object.metadata.labels) && '" + LOAD + "' in object.metadata.labels"))
        void mark(V1ConfigMap configMap, AdmissionContext request) {
            if (!request.dryRun()) {
                admitted.add(request.name());
            }
            configMap.getMetadata().getLabels().put(MARK, "yes");
        }
    }
}
