package dev.watchkeeper.autoconfigure.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import dev.watchkeeper.annotation.Reconciler;
import dev.watchkeeper.autoconfigure.WatchkeeperWebhooks;
import dev.watchkeeper.autoconfigure.endpoint.WatchkeeperEndpoint;
import dev.watchkeeper.autoconfigure.endpoint.WebhooksDescriptor;
import dev.watchkeeper.autoconfigure.endpoint.WebhooksDescriptor.WebhookDescriptor;
import dev.watchkeeper.test.boot.AutoConfigureRealKubeApi;
import dev.watchkeeper.test.controlplane.KubeControlPlane;
import dev.watchkeeper.test.controlplane.TestNamespace;
import dev.watchkeeper.webhook.AdmissionContext;
import dev.watchkeeper.webhook.AdmissionVerdict;
import dev.watchkeeper.webhook.MatchCondition;
import dev.watchkeeper.webhook.MutatingWebhook;
import dev.watchkeeper.webhook.Operation;
import dev.watchkeeper.webhook.ValidatingWebhook;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.AdmissionregistrationV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.openapi.models.V1ValidatingWebhook;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The real kube-apiserver calls the application's webhooks over TLS on loopback: the starter makes a CA and a
 * serving certificate, keeps them in a Secret, serves on its own port and registers both configurations with the
 * CA bundle. Only ConfigMaps labelled {@value #LABEL} match (a match condition), and the configurations and the
 * Secret are deleted after the class, so other tests sharing the control plane never meet these webhooks.
 */
@AutoConfigureRealKubeApi
@SpringBootTest(classes = WebhooksOnControlPlaneIntegrationTests.App.class, properties = {
        "spring.application.name=" + WebhooksOnControlPlaneIntegrationTests.NAME,
        "watchkeeper.webhooks.register=true",
        "management.endpoints.web.exposure.include=watchkeeper"})
@DirtiesContext
class WebhooksOnControlPlaneIntegrationTests {

    static final String NAME = "webhooks-it";
    static final String LABEL = "webhooks-it.watchkeeper.dev/checked";
    static final String SECRET = NAME + "-" + UUID.randomUUID().toString().substring(0, 8);
    static final int PORT = freePort();
    static final List<AdmissionContext> seen = new CopyOnWriteArrayList<>();
    /** The {@code tier} label the application's reconciler was handed, by object name. */
    static final Map<String, String> reconciledTiers = new ConcurrentHashMap<>();

    @Autowired
    KubeControlPlane plane;

    @Autowired
    WatchkeeperWebhooks webhooks;

    @Autowired
    WatchkeeperEndpoint endpoint;

    CoreV1Api core;
    String namespace;
    final AtomicInteger names = new AtomicInteger();

    @DynamicPropertySource
    static void webhookServer(DynamicPropertyRegistry registry) {
        registry.add("watchkeeper.webhooks.port", () -> PORT);
        registry.add("watchkeeper.webhooks.address", () -> "127.0.0.1");
        registry.add("watchkeeper.webhooks.url", () -> "https://127.0.0.1:" + PORT);
        registry.add("watchkeeper.webhooks.certificate-secret", () -> SECRET);
    }

    @BeforeEach
    void awaitRegistered(TestNamespace testNamespace) {
        namespace = testNamespace.name();
        core = new CoreV1Api(plane.apiClient());
        // the API server takes up a new configuration from its informer, within moments: probe with a dry run
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).untilAsserted(() ->
                assertThatThrownBy(() -> core.createNamespacedConfigMap(namespace,
                        configMap("probe", Map.of("password", "x"))).dryRun("All").execute())
                        .isInstanceOf(ApiException.class));
    }

    @AfterAll
    static void removeWebhooks() throws ApiException {
        KubeControlPlane plane = KubeControlPlane.shared();
        AdmissionregistrationV1Api admission = new AdmissionregistrationV1Api(plane.apiClient());
        admission.deleteValidatingWebhookConfiguration(NAME).execute();
        admission.deleteMutatingWebhookConfiguration(NAME).execute();
        new CoreV1Api(plane.apiClient()).deleteNamespacedSecret(SECRET, "default").execute();
    }

    @Test
    void anInvalidObjectIsRefusedWithTheWebhooksMessage_throughKubectlApplyToo() throws IOException {
        assertThatThrownBy(() -> core.createNamespacedConfigMap(namespace,
                configMap("bad", Map.of("password", "hunter2"))).execute())
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.getCode()).isEqualTo(403);
                    assertThat(e.getResponseBody()).contains("admission webhook"
                            + " \\\"no-passwords.webhooks-it.watchkeeper.dev\\\" denied the request:"
                            + " passwords belong in a Secret, not in ConfigMap bad");
                });

        Path manifest = Files.createTempFile("webhooks-it", ".yaml");
        Files.writeString(manifest, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: applied\n  namespace: "
                + namespace + "\n  labels:\n    " + LABEL + ": \"yes\"\ndata:\n  password: x\n");
        assertThatThrownBy(() -> plane.kubectl("apply", "-f", manifest.toString()))
                .hasMessageContaining("passwords belong in a Secret, not in ConfigMap applied");
        Files.delete(manifest);
    }

    @Test
    void aMutatingWebhookSetsADefaultTheStoredObjectHas_andTheReconcilerSees() throws ApiException {
        core.createNamespacedConfigMap(namespace, configMap("plain", Map.of("a", "b"))).execute();

        V1ConfigMap stored = core.readNamespacedConfigMap("plain", namespace).execute();
        assertThat(stored.getMetadata().getLabels()).containsEntry("tier", "standard").containsEntry(LABEL, "yes");
        assertThat(stored.getData()).isEqualTo(Map.of("a", "b"));
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(reconciledTiers).containsEntry("plain", "standard"));
    }

    @Test
    void aMethodThatThrowsRefusesWithTheFirstLineOfItsMessage() {
        assertThatThrownBy(() -> core.createNamespacedConfigMap(namespace,
                configMap("exploding", Map.of("explode", "now"))).execute())
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.getResponseBody())
                        .contains("denied the request: the check broke on exploding")
                        .doesNotContain("second line").doesNotContain("at dev.watchkeeper"));
    }

    @Test
    void aDryRunReachesTheWebhookAsOne_andStoresNothing() throws ApiException {
        core.createNamespacedConfigMap(namespace, configMap("dry", Map.of("a", "b"))).dryRun("All").execute();

        assertThat(seen).filteredOn(context -> context.name().equals("dry")).singleElement()
                .satisfies(context -> {
                    assertThat(context.dryRun()).isTrue();
                    assertThat(context.operation()).isEqualTo(Operation.CREATE);
                    assertThat(context.namespace()).isEqualTo(namespace);
                    assertThat(context.groups()).contains("system:masters");
                });
        assertThat(core.listNamespacedConfigMap(namespace).execute().getItems())
                .noneMatch(configMap -> configMap.getMetadata().getName().equals("dry"));
    }

    @Test
    void theCertificateIsKeptInASecret_andTheConfigurationTrustsItsCa() throws ApiException {
        V1Secret secret = core.readNamespacedSecret(SECRET, "default").execute();
        assertThat(secret.getType()).isEqualTo("kubernetes.io/tls");
        assertThat(secret.getData()).containsKeys("tls.crt", "tls.key", "ca.crt", "ca.key");

        V1ValidatingWebhook registered = new AdmissionregistrationV1Api(plane.apiClient())
                .readValidatingWebhookConfiguration(NAME).execute().getWebhooks().get(0);
        assertThat(registered.getClientConfig().getCaBundle()).isEqualTo(secret.getData().get("ca.crt"));
        assertThat(registered.getClientConfig().getUrl())
                .isEqualTo("https://127.0.0.1:" + PORT + "/validate/no-passwords.webhooks-it.watchkeeper.dev");
        assertThat(registered.getSideEffects()).isEqualTo("None");
        assertThat(webhooks.service().orElseThrow().certificateNotAfter())
                .isAfter(Instant.now().plus(Duration.ofDays(300)));
    }

    @Test
    void theEndpointListsTheWebhooksAndTheCertificatesExpiry() {
        WebhooksDescriptor described = endpoint.watchkeeper().webhooks();

        assertThat(described.port()).isEqualTo(PORT);
        assertThat(described.certificateSource()).isEqualTo("Secret default/" + SECRET + " (made by the starter)");
        assertThat(described.certificateNotAfter()).isEqualTo(webhooks.service().orElseThrow().certificateNotAfter());
        assertThat(described.webhooks()).extracting(WebhookDescriptor::name, WebhookDescriptor::kind,
                WebhookDescriptor::resource, WebhookDescriptor::operations, WebhookDescriptor::path)
                .containsExactly(
                        tuple("no-passwords.webhooks-it.watchkeeper.dev", "VALIDATING", "v1/configmaps",
                                List.of(Operation.CREATE, Operation.UPDATE),
                                "/validate/no-passwords.webhooks-it.watchkeeper.dev"),
                        tuple("default-tier.webhooks-it.watchkeeper.dev", "MUTATING", "v1/configmaps",
                                List.of(Operation.CREATE), "/mutate/default-tier.webhooks-it.watchkeeper.dev"));
    }

    private V1ConfigMap configMap(String name, Map<String, String> data) {
        return new V1ConfigMap().metadata(new V1ObjectMeta().name(name).namespace(namespace)
                .labels(Map.of(LABEL, "yes"))).data(data);
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    // nested in the class with the tests, so other test applications of this package do not scan it
    @SpringBootApplication
    static class App {

        @Bean
        Checks checks() {
            return new Checks();
        }
    }

    /**
     * A validating webhook that refuses passwords (and breaks on request); a mutating one that defaults a label; a
     * reconciler of the labelled ConfigMaps that records the default it is handed.
     */
    static class Checks {

        @ValidatingWebhook(type = V1ConfigMap.class, name = "no-passwords.webhooks-it.watchkeeper.dev",
                matchConditions = @MatchCondition(name = "labelled",
                        expression = "has(object.metadata.labels) && '" + LABEL + "' in object.metadata.labels"))
        AdmissionVerdict noPasswords(V1ConfigMap configMap, AdmissionContext request) {
            seen.add(request);
            Map<String, String> data = configMap.getData() == null ? Map.of() : configMap.getData();
            if (data.containsKey("explode")) {
                throw new IllegalStateException("the check broke on " + request.name() + "\nsecond line");
            }
            return data.containsKey("password")
                    ? AdmissionVerdict.deny("passwords belong in a Secret, not in ConfigMap " + request.name())
                    : AdmissionVerdict.allow();
        }

        @Reconciler(name = "tiers", labelSelector = LABEL)
        void reconcile(V1ConfigMap configMap) {
            reconciledTiers.put(configMap.getMetadata().getName(),
                    configMap.getMetadata().getLabels().getOrDefault("tier", "none"));
        }

        @MutatingWebhook(type = V1ConfigMap.class, operations = Operation.CREATE,
                name = "default-tier.webhooks-it.watchkeeper.dev",
                matchConditions = @MatchCondition(name = "labelled",
                        expression = "has(object.metadata.labels) && '" + LABEL + "' in object.metadata.labels"))
        void defaultTier(V1ConfigMap configMap) {
            configMap.getMetadata().getLabels().putIfAbsent("tier", "standard");
        }
    }
}
