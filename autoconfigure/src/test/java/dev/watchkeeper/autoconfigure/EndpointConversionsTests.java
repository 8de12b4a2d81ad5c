package dev.watchkeeper.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.watchkeeper.autoconfigure.CrdsAutoConfigurationTests.Dial;
import dev.watchkeeper.autoconfigure.endpoint.WatchkeeperEndpoint;
import dev.watchkeeper.autoconfigure.endpoint.WebhooksDescriptor;
import dev.watchkeeper.autoconfigure.endpoint.WebhooksDescriptor.ConversionDescriptor;
import dev.watchkeeper.internal.registry.RegistryServices;
import dev.watchkeeper.internal.registry.WatchkeeperRegistry;
import dev.watchkeeper.internal.webhook.ResourceVersions;
import dev.watchkeeper.internal.webhook.SecretCertificates;
import dev.watchkeeper.internal.webhook.WebhookService;
import dev.watchkeeper.test.apiserver.InMemoryApiServer;
import io.kubernetes.client.openapi.ApiClient;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

/** {@code /actuator/watchkeeper}'s {@code webhooks} lists the conversions the webhook server answers. */
class EndpointConversionsTests {

    @Test
    void aServerThatOnlyConvertsListsEachResourceItConverts() throws Exception {
        ExecutorService executor = Executors.newCachedThreadPool();
        try (InMemoryApiServer api = new InMemoryApiServer().start()) {
            ApiClient client = api.apiClient();
            try (WebhookService service = new WebhookService(client, List.of(),
                    List.of(ResourceVersions.of(Dial.class).orElseThrow()),
                    new SecretCertificates(client, "default", "conversions", List.of(), List.of("127.0.0.1"),
                            Clock.systemUTC()),
                    null, null, new InetSocketAddress("127.0.0.1", 0), executor, Clock.systemUTC())) {
                service.start();

                WebhooksDescriptor described = new WatchkeeperEndpoint(new WatchkeeperRegistry(
                        RegistryServices.of(client)), null, null, () -> service).watchkeeper().webhooks();

                assertThat(described.webhooks()).isEmpty();
                assertThat(described.conversions()).containsExactly(new ConversionDescriptor(
                        "dials.test.watchkeeper.dev", "v2", List.of("v2", "v1"), "/convert"));
                assertThat(described.port()).isEqualTo(service.port()).isPositive();
            }
        } finally {
            executor.shutdownNow();
        }
    }
}
