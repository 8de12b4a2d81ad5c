package dev.watchkeeper.autoconfigure.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.InstanceOfAssertFactories.MAP;

import dev.watchkeeper.internal.registry.RegistryServices;
import dev.watchkeeper.internal.registry.WatchkeeperRegistry;
import dev.watchkeeper.internal.webhook.DeclaredWebhook;
import dev.watchkeeper.internal.webhook.SecretCertificates;
import dev.watchkeeper.internal.webhook.WebhookDefinition;
import dev.watchkeeper.internal.webhook.WebhookKind;
import dev.watchkeeper.internal.webhook.WebhookService;
import dev.watchkeeper.internal.resource.ResourceType;
import dev.watchkeeper.test.VirtualTime;
import dev.watchkeeper.test.apiserver.InMemoryApiServer;
import dev.watchkeeper.webhook.FailurePolicy;
import dev.watchkeeper.webhook.Operation;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

/** The webhooks in the {@code watchkeeper} health indicator: their certificate, and DOWN when they cannot be called. */
class WatchkeeperHealthIndicatorWebhooksTests {

    static final Instant NOW = Instant.now().truncatedTo(ChronoUnit.SECONDS);

    final InMemoryApiServer api = new InMemoryApiServer().start();
    final VirtualTime time = new VirtualTime(NOW);
    WebhookService service;
    WatchkeeperRegistry registry;

    @BeforeEach
    void serve() throws Exception {
        ApiClient client = api.apiClient();
        WebhookDefinition definition = new WebhookDefinition("check.health.watchkeeper.dev", WebhookKind.VALIDATING,
                ResourceType.of(V1ConfigMap.class), List.of(Operation.CREATE), FailurePolicy.FAIL, 10, Map.of());
        service = new WebhookService(client, List.of(new DeclaredWebhook(definition, (object, old, context) -> null)),
                List.of(), new SecretCertificates(client, "default", "health", List.of(), List.of("127.0.0.1"),
                        Clock.fixed(NOW, ZoneOffset.UTC)),
                null, null, new InetSocketAddress("127.0.0.1", 0), Executors.newCachedThreadPool(), time.clock());
        service.start();
        registry = new WatchkeeperRegistry(RegistryServices.of(client));
    }

    @AfterEach
    void stop() {
        service.close();
        api.close();
    }

    @Test
    void upWithTheCertificatesExpiryAndRotations() {
        Health health = new WatchkeeperHealthIndicator(registry, null, () -> service).health();

        assertThat(health.getStatus()).isEqualTo(Status.UP);
        assertThat(health.getDetails().get("webhooks")).isEqualTo(Map.of(
                "certificateNotAfter", service.certificateNotAfter().toString(), "rotations", 0));
    }

    @Test
    void downOnceTheServedCertificateHasExpired() {
        time.advance(Duration.between(NOW, service.certificateNotAfter()));

        Health health = new WatchkeeperHealthIndicator(registry, null, () -> service).health();

        assertThat(health.getStatus()).isEqualTo(Status.DOWN);
        assertThat(health.getDetails().get("webhooks")).asInstanceOf(MAP).containsEntry("reason",
                "the serving certificate from Secret default/health (made by the starter) expired at "
                        + service.certificateNotAfter() + "; the API server refuses it");
    }

    @Test
    void downWhenTheServerIsNotServing() {
        service.close();

        Health health = new WatchkeeperHealthIndicator(registry, null, () -> service).health();

        assertThat(health.getStatus()).isEqualTo(Status.DOWN);
        assertThat(health.getDetails().get("webhooks")).asInstanceOf(MAP).containsEntry("reason",
                "the webhook server is not serving");
    }

    @Test
    void withoutWebhooksThereIsNoWebhookDetail() {
        Health health = new WatchkeeperHealthIndicator(registry, null, () -> null).health();

        assertThat(health.getStatus()).isEqualTo(Status.UP);
        assertThat(health.getDetails()).doesNotContainKey("webhooks");
    }
}
