package dev.watchkeeper.autoconfigure.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.watchkeeper.internal.webhook.SecretCertificates;
import dev.watchkeeper.internal.webhook.ServingCertificate;
import dev.watchkeeper.test.controlplane.KubeControlPlane;
import dev.watchkeeper.test.controlplane.RealKubeApi;
import dev.watchkeeper.test.controlplane.TestNamespace;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Secret;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * The starter's certificate Secret on the real API server: replicas starting at once agree on one pair (the
 * create that loses gets 409 and reads the winner's); one that starts close to the certificate's expiry renews it
 * with the same CA, so the registered caBundle stays valid; a CA close to its expiry is rotated with an overlap.
 */
@RealKubeApi
class WebhookCertificateSecretOnControlPlaneIntegrationTests {

    static final List<String> HOSTS = List.of("webhooks.example.svc");

    @Test
    void replicasStartingAtOnceServeTheSamePair(KubeControlPlane plane, TestNamespace namespace) throws Exception {
        Clock clock = Clock.systemUTC();
        ExecutorService replicas = Executors.newFixedThreadPool(4);
        try {
            List<Callable<ServingCertificate>> starts = List.of(1, 2, 3, 4).stream()
                    .<Callable<ServingCertificate>>map(replica -> () -> new SecretCertificates(plane.apiClient(),
                            namespace.name(), "raced", HOSTS, List.of(), clock).current())
                    .toList();
            List<ServingCertificate> served = replicas.invokeAll(starts).stream()
                    .map(WebhookCertificateSecretOnControlPlaneIntegrationTests::get).toList();

            assertThat(served).extracting(certificate -> certificate.chain().get(0))
                    .containsOnly(served.get(0).chain().get(0));
            assertThat(served).extracting(ServingCertificate::key).containsOnly(served.get(0).key());
        } finally {
            replicas.shutdownNow();
        }
    }

    @Test
    void aCertificateCloseToExpiryIsRenewedByTheSameCa(KubeControlPlane plane, TestNamespace namespace)
            throws Exception {
        Instant now = Instant.now();
        ServingCertificate first = new SecretCertificates(plane.apiClient(), namespace.name(), "renewed", HOSTS,
                List.of(), Clock.fixed(now, ZoneOffset.UTC)).current();
        Clock lateClock = Clock.fixed(first.notAfter().minus(Duration.ofDays(10)), ZoneOffset.UTC);

        ServingCertificate renewed = new SecretCertificates(plane.apiClient(), namespace.name(), "renewed", HOSTS,
                List.of(), lateClock).current();

        assertThat(renewed.notAfter()).isAfter(first.notAfter());
        assertThat(renewed.caBundle()).isEqualTo(first.caBundle());
        renewed.chain().get(0).verify(first.authorities().get(0).getPublicKey());
        V1Secret stored = new CoreV1Api(plane.apiClient()).readNamespacedSecret("renewed", namespace.name()).execute();
        assertThat(new SecretCertificates(plane.apiClient(), namespace.name(), "renewed", HOSTS, List.of(),
                lateClock).current().chain()).isEqualTo(renewed.chain());
        assertThat(stored.getData().get("ca.crt")).isEqualTo(renewed.caBundle());
    }

    @Test
    void aCaCloseToExpiryIsRotatedWithAnOverlap_andDroppedFromTheBundleOnceExpired(KubeControlPlane plane,
            TestNamespace namespace) throws Exception {
        ServingCertificate first = at(plane, namespace, Instant.now()).current();
        X509Certificate oldCa = first.authorities().get(0);
        Instant rotation = oldCa.getNotAfter().toInstant().minus(Duration.ofDays(100));

        SecretCertificates replica = at(plane, namespace, rotation);
        ServingCertificate duringOverlap = replica.current();
        assertThat(replica.current()).as("the same while nothing changed").isSameAs(duringOverlap);
        assertThat(duringOverlap.authorities()).hasSize(2).endsWith(oldCa);
        duringOverlap.chain().get(0).verify(oldCa.getPublicKey()); // still from the CA the API server trusts
        assertThat(duringOverlap.notAfter()).isBeforeOrEqualTo(oldCa.getNotAfter().toInstant());

        ServingCertificate afterOverlap = at(plane, namespace, rotation.plus(Duration.ofHours(2))).current();
        assertThat(afterOverlap.authorities()).isEqualTo(duringOverlap.authorities());
        afterOverlap.chain().get(0).verify(afterOverlap.authorities().get(0).getPublicKey());

        ServingCertificate oldCaExpired = at(plane, namespace, oldCa.getNotAfter().toInstant().plus(Duration.ofDays(1)))
                .current();
        assertThat(oldCaExpired.authorities()).containsExactly(afterOverlap.authorities().get(0));
    }

    private static SecretCertificates at(KubeControlPlane plane, TestNamespace namespace, Instant now) {
        return new SecretCertificates(plane.apiClient(), namespace.name(), "rotated", HOSTS, List.of(),
                Clock.fixed(now, ZoneOffset.UTC));
    }

    private static ServingCertificate get(Future<ServingCertificate> future) {
        try {
            return future.get();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
